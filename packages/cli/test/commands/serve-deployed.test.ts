// Issue 36.3: `preencode deploy dist --to t && preencode serve t` serves the site with its
// variants, and so does `createPreencodeHandler(t)`: the deploy leaves the manifest of what it
// deployed at the folder's root (a dotfile, like the deploy state beside it, which no generated
// config sends). Before, serve refused ("run `preencode compress` first"). The issue 36.1 repro
// follows: after a second deploy where the page fell under the threshold, both send the new page.
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { createPreencodeHandler } from '@preencode/server-config'
import { runCollected, startPreencodeServe, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = process.env.PREENCODE_TEST_BIN ?? resolve(import.meta.dirname, '../../dist/bin.js')
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex')
const OLD = `<!doctype html><p>OLD PAGE ${'lorem ipsum '.repeat(100)}</p>\n`
const NEW = '<p>NEW PAGE, short</p>\n'

let work: Awaited<ReturnType<typeof tempDir>>
let dist: string
let target: string

const cli = (args: string[]) =>
  runCollected(process.execPath, [BIN, ...args], { cwd: work.path, env: { ...process.env, NO_COLOR: '1', CI: '1' } })

async function build(page: string): Promise<void> {
  await rm(dist, { recursive: true, force: true })
  await mkdir(dist, { recursive: true })
  await writeFile(join(dist, 'index.html'), page)
  await writeFile(join(dist, '.env'), 'SECRET=1\n')
  const compressed = await cli(['compress', 'dist', '--quiet', '--no-cache'])
  expect(compressed.code, compressed.stderr).toBe(0)
  const deployed = await cli(['deploy', 'dist', '--to', 't'])
  expect(deployed.code, deployed.stderr).toBe(0)
}

/** What serve and the handler answer a browser (`br` accepted): status, coding, ETag, decoded page. */
async function ask(fetchPage: (headers: Record<string, string>) => Promise<Response | undefined>) {
  const res = await fetchPage({ 'accept-encoding': 'br, gzip' })
  if (!res) throw new Error('the handler passed the request on')
  const body = Buffer.from(await res.arrayBuffer())
  const encoding = res.headers.get('content-encoding')
  return {
    status: res.status,
    encoding,
    etag: res.headers.get('etag'),
    page: (encoding === 'br' ? brotliDecompressSync(body) : body).toString(),
  }
}

const viaHandler = (headers: Record<string, string>) =>
  createPreencodeHandler(target)(new Request('http://site.test/', { headers }))

beforeAll(async () => {
  work = await tempDir('serve-deployed')
  dist = join(work.path, 'dist')
  target = join(work.path, 't')
})
afterAll(async () => {
  await work.remove()
})

describe('preencode serve and the handler on a deployed folder (issue 36.3)', () => {
  it('serves the variants the deploy wrote, with content-hash ETags; then the new page after a redeploy', async () => {
    await build(OLD)
    // The manifest left there names what was deployed, not the dotfile that stayed home.
    const left = JSON.parse(await readFile(join(target, '.preencode-manifest.json'), 'utf8')) as {
      files: { path: string; sha256: string; variants: { path: string; sha256: string }[] }[]
    }
    expect(left.files.map((f) => f.path)).toEqual(['index.html'])
    const br = left.files[0]!.variants.find((v) => v.path === 'index.html.br')!
    const server = await startPreencodeServe(target)
    try {
      const viaServe = (headers: Record<string, string>) => fetchRaw(server.url, headers)
      for (const way of [viaServe, viaHandler]) {
        const first = await ask(way)
        expect(first).toMatchObject({ status: 200, encoding: 'br', page: OLD })
        expect(first.etag).toBe(`"${br.sha256.slice(0, 32)}"`)
        expect(sha(await readFile(join(target, 'index.html.br')))).toBe(br.sha256)
      }
      await build(NEW)
      for (const way of [viaServe, viaHandler]) expect(await ask(way)).toMatchObject({ status: 200, page: NEW })
    } finally {
      await server.stop()
    }
  })
})

/** A request to `preencode serve` whose body is not decoded (the stored bytes, as sent). */
async function fetchRaw(url: string, headers: Record<string, string>): Promise<Response> {
  const { request } = await import('node:http')
  return new Promise((done, fail) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const out = new Headers()
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') out.set(name, value)
        done(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: out }))
      })
    })
    req.on('error', fail)
    req.end()
  })
}
