// verifySite against a tiny node:http server that serves the fixture correctly, and broken ones.
// (The table the CLI prints from the result is tested in packages/cli/test/render.test.ts.)

import { readFile, writeFile } from 'node:fs/promises'
import { createServer, type Server, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import type { Manifest, ManifestFile } from '@preencode/core'
import { verifySite } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFixtureSite } from '../fixture.js'

async function makeSite(): Promise<{ root: string; manifest: Manifest; remove: () => Promise<void> }> {
  const dir = await tempDir('verify-site')
  return { root: dir.path, manifest: await buildFixtureSite(dir.path), remove: dir.remove }
}

type Fault =
  | 'none'
  | 'always-gzip'
  | 'wrong-type'
  | 'double-vary'
  | 'no-vary'
  | 'corrupt'
  | 'ignores-q0'
  | 'serves-dotfiles'

function accepts(header: string | undefined): Map<string, number> {
  const q = new Map<string, number>()
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase())
    if (!name) continue
    const qp = params.find((p) => p.startsWith('q='))
    q.set(name === 'x-gzip' ? 'gzip' : name, qp ? Number(qp.slice(2)) : 1)
  }
  return q
}

function serve(root: string, manifest: Manifest, fault: Fault): Server {
  const byPath = new Map<string, ManifestFile>(manifest.files.map((f) => [f.path, f]))
  return createServer((req, res: ServerResponse) => {
    void (async () => {
      let path = decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1))
      if (path === '' || path.endsWith('/')) path += 'index.html'
      const file = byPath.get(path)
      // Dotfiles are refused, as every generated config does, unless the fault serves them.
      const dotfile = path.split('/').some((segment) => segment.startsWith('.'))
      if (!file || (dotfile && fault !== 'serves-dotfiles')) return res.writeHead(404).end()
      const q = accepts(req.headers['accept-encoding'])
      let variant = ['br', 'zstd', 'gzip']
        .map((e) => file.variants.find((v) => v.encoding === e))
        .find((v) => v && (q.get(v.encoding) ?? 0) > 0)
      if (fault === 'always-gzip') variant = file.variants.find((v) => v.encoding === 'gzip')
      if (fault === 'ignores-q0' && q.has('br')) variant = file.variants.find((v) => v.encoding === 'br') ?? variant
      let body = await readFile(join(root, variant?.path ?? file.path))
      if (fault === 'corrupt' && file.cacheClass === 'html') body = Buffer.concat([body, Buffer.from('x')])
      const headers: Record<string, string | string[]> = {
        'content-type': fault === 'wrong-type' ? 'text/plain' : file.contentType,
        'content-length': String(body.length),
      }
      if (variant) headers['content-encoding'] = variant.encoding
      if (file.variants.length > 0 && fault !== 'no-vary')
        headers.vary = fault === 'double-vary' ? ['Accept-Encoding', 'accept-encoding'] : 'Accept-Encoding'
      res.writeHead(200, headers).end(body)
    })()
  })
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`
}

let site: Awaited<ReturnType<typeof makeSite>>
const servers: Server[] = []

beforeAll(async () => {
  site = await makeSite()
})
afterAll(async () => {
  for (const s of servers) s.close()
  await site?.remove()
})

async function verifyWith(fault: Fault, limit?: number) {
  const server = serve(site.root, site.manifest, fault)
  servers.push(server)
  return verifySite(await listen(server), site.manifest, site.root, { limit })
}

describe('verifySite', () => {
  it('passes a server that serves the variants right', async () => {
    const result = await verifyWith('none')
    expect(result.failures).toEqual([])
    // 6 probes per URL; index.html files also answer on their directory URL.
    const html = site.manifest.files.filter((f) => f.path.endsWith('index.html')).length
    expect(result.checks.length).toBe((site.manifest.files.length + html) * 6)
  })

  it.each<[Fault, RegExp]>([
    ['always-gzip', /Content-Encoding gzip was not accepted by "br"/],
    ['wrong-type', /Content-Type text\/plain, expected/],
    ['double-vary', /Vary names Accept-Encoding 2 times/],
    ['no-vary', /Vary lacks Accept-Encoding/],
    ['corrupt', /decoded body .* differs from the original/],
    ['ignores-q0', /Content-Encoding br was not accepted by "br;q=0, gzip"/],
  ])('fails a server with fault %s, naming the problem', async (fault, message) => {
    const result = await verifyWith(fault)
    expect(result.failures.length).toBeGreaterThan(0)
    expect(result.failures.flatMap((check) => check.problems).join('\n')).toMatch(message)
  })

  it('expects 404 for a dotfile the manifest lists, and names a server that serves it', async () => {
    const env = { ...site.manifest.files.find((f) => f.variants.length === 0)!, path: '.env' }
    await writeFile(join(site.root, '.env'), await readFile(join(site.root, site.manifest.files[0]!.path)))
    const manifest = { ...site.manifest, files: [...site.manifest.files, env] }
    const check = async (fault: Fault) => {
      const server = serve(site.root, manifest, fault)
      servers.push(server)
      return verifySite(await listen(server), manifest, site.root)
    }
    expect((await check('none')).failures).toEqual([])
    const served = await check('serves-dotfiles')
    expect(served.failures.map((f) => f.path)).toContain('.env')
    expect(served.failures.flatMap((f) => f.problems).join('\n')).toMatch(/a dotfile or dot-folder is served/)
  })

  it('--limit samples HTML first', async () => {
    const result = await verifyWith('none', 3)
    expect(result.files).toBe(3)
    expect(new Set(result.checks.map((c) => c.path)).has('index.html')).toBe(true)
  })

  it('refuses a manifest that names a path out of the site, naming both, before any request', async () => {
    const file = site.manifest.files.find((f) => f.variants.length > 0)!
    const moved = { ...file, variants: file.variants.map((v, i) => (i === 0 ? { ...v, path: '../outside/x.gz' } : v)) }
    const manifest = { ...site.manifest, files: site.manifest.files.map((f) => (f === file ? moved : f)) }
    const asked: string[] = []
    const server = createServer((req, res) => {
      asked.push(req.url ?? '')
      res.writeHead(404).end()
    })
    servers.push(server)
    const run = verifySite(await listen(server), manifest, site.root)
    await expect(run).rejects.toThrow(
      `${join(site.root, '.preencode-manifest.json')} names "../outside/x.gz", a path out of the site`,
    )
    expect(asked).toEqual([])
  })

  it('reports unreachable servers per check, and rejects non-http URLs clearly', async () => {
    const result = await verifySite('http://127.0.0.1:1/', site.manifest, site.root, { limit: 1 })
    expect(result.failures[0]!.problems[0]).toMatch(/request failed: .*ECONNREFUSED/)
    await expect(verifySite('ftp://x/', site.manifest, site.root)).rejects.toThrow(/must be http/)
  })
})
