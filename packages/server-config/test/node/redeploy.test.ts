// The middleware follows the site (issue 7, case 2): a folder served over real HTTP is
// recompressed in place again and again with new content (originals replaced atomically, then
// `compressDirectory`, which is what a rebuild or a deploy into a local folder does), while
// hundreds of requests with every Accept-Encoding run against it. Every body must be complete
// and decode to one whole version of its file; none may be truncated or undecodable.
import { createHash } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders, request } from 'node:http'
import { dirname, join } from 'node:path'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'
import { compress as compressDirectory } from '@preencode/core'
import { createPreencodeMiddleware } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'

interface Res {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

function get(port: number, path: string, headers: Record<string, string>): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex')
const PATHS = ['index.html', 'assets/app.js', 'data.json'] as const

/**
 * Version `v` of a file: its length changes with every version, so a stale length shows; every
 * third version of data.json is below the threshold, so its variants come and go.
 */
function contentOf(path: string, v: number): string {
  if (path === 'data.json' && v % 3 === 0) return JSON.stringify({ v, small: true })
  const line = `${path} version ${v}: the quick brown fox jumps over the lazy dog\n`
  const body = line.repeat(40 + ((v * 37) % 90))
  return path.endsWith('.html')
    ? `<!doctype html><title>v${v}</title>\n${body}`
    : path.endsWith('.json')
      ? JSON.stringify({ v, body })
      : `export const v = ${v}\n/*\n${body}*/\n`
}

async function writeVersion(root: string, v: number, versions: Map<string, Set<string>>): Promise<void> {
  for (const path of PATHS) {
    const content = contentOf(path, v)
    versions.get(path)!.add(sha(content))
    const target = join(root, path)
    await mkdir(dirname(target), { recursive: true })
    // Replaced atomically, as build tools and deploys do: a reader sees the old or the new file.
    await writeFile(`${target}.next`, content)
    await rename(`${target}.next`, target)
  }
}

function decode(encoding: string | undefined, body: Buffer): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body)
  if (encoding === 'gzip') return gunzipSync(body)
  if (encoding === 'zstd') return zstdDecompressSync(body)
  if (encoding === undefined) return body
  throw new Error(`unexpected Content-Encoding ${encoding}`)
}

describe('createPreencodeMiddleware while the site is recompressed in place', () => {
  it('every response is complete and decodes to a whole version of its file; the newest version is served after the loop, without a restart', async () => {
    const tmp = await tempDir('middleware-redeploy')
    const root = join(tmp.path, 'site')
    const versions = new Map<string, Set<string>>(PATHS.map((p) => [p, new Set()]))
    const options = { cache: false, levels: { brotli: 5, zstd: 3, gzip: 6 } } as const
    await writeVersion(root, 1, versions)
    await compressDirectory(root, options)

    const middleware = createPreencodeMiddleware(root)
    const server = createServer((req, res) => middleware(req, res))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : 0

    let rebuilding = true
    let version = 1
    const rebuilds = (async () => {
      while (rebuilding) {
        version++
        await writeVersion(root, version, versions)
        await compressDirectory(root, options)
      }
    })()

    const accepts = ['br', 'gzip', 'zstd', 'identity', 'gzip, deflate, br, zstd', '']
    const problems: string[] = []
    let served = 0
    const TOTAL = 600
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < TOTAL) {
        const n = next++
        const path = PATHS[n % PATHS.length]!
        const accept = accepts[n % accepts.length]!
        try {
          const res = await get(port, `/${path}`, accept ? { 'accept-encoding': accept } : {})
          served++
          if (res.status !== 200) {
            problems.push(`${path} [${accept}]: status ${res.status}`)
            continue
          }
          if (res.headers['content-length'] !== String(res.body.length))
            problems.push(
              `${path} [${accept}]: Content-Length ${res.headers['content-length']} but ${res.body.length} bytes`,
            )
          const decoded = decode(res.headers['content-encoding'], res.body)
          if (!versions.get(path)!.has(sha(decoded)))
            problems.push(
              `${path} [${accept}]: ${res.headers['content-encoding'] ?? 'identity'} body decodes to no version of the file`,
            )
        } catch (error) {
          problems.push(`${path} [${accept}]: ${(error as Error).message}`)
        }
      }
    }
    try {
      await Promise.all(Array.from({ length: 8 }, worker))
      rebuilding = false
      await rebuilds
      expect(problems, problems.slice(0, 10).join('\n')).toEqual([])
      expect(served).toBe(TOTAL)
      expect(version).toBeGreaterThan(3) // the site really changed under the requests, several times

      // After the last rebuild, without a restart: the newest version, with any coding.
      for (const path of PATHS) {
        for (const accept of ['br', 'zstd', 'gzip', 'identity']) {
          const res = await get(port, `/${path}`, { 'accept-encoding': accept })
          expect(decode(res.headers['content-encoding'], res.body).toString(), `${path} [${accept}]`).toBe(
            contentOf(path, version),
          )
        }
      }
    } finally {
      rebuilding = false
      await rebuilds.catch(() => {})
      server.close()
      await tmp.remove()
    }
  })
})
