// The static-host conventions (issue 36, docs/static-host-conventions.md) as the specification
// decides them (`fallbacksOf`) and as the JavaScript servers follow them: the middleware, the
// Fetch handler (`fallthrough: false`, as `preencode serve` runs it) and the Cloudflare Worker,
// on a real compressed site: `/contact` is contact.html with its variants, a missing path the
// site's 404.html with status 404, and `spa` sends unknown extensionless paths to index.html.
import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { dirname, join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { compress as compressDirectory, type Manifest } from '@preencode/core'
import {
  cloudflareWorkerFiles,
  createPreencodeHandler,
  createPreencodeMiddleware,
  SERVER_REGISTRY,
  type ServerEntry,
} from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorker } from '../../src/cloudflare/runtime.js'
import type { WorkerSite } from '../../src/cloudflare/site-data.js'
import { DEFAULT_CONVENTIONS, fallbacksOf } from '../../src/http/conventions.js'
import { resolveConventions } from '../../src/shared/conventions.js'
import { assetsOf, edgeRequest } from '../cloudflare/helpers.ts'
import { get } from '../node/helpers.ts'

const page = (title: string): string =>
  `<!doctype html><title>${title}</title>${Array.from({ length: 80 }, (_, i) => `<p>${title} ${i}</p>`).join('')}\n`
const FILES: Record<string, string> = {
  'index.html': page('INDEX'),
  'about/index.html': page('ABOUT'),
  'contact.html': page('CONTACT'),
  'guide/start.html': page('START'),
  '404.html': page('NOT FOUND'),
  'assets/app.js': 'console.log("app");\n'.repeat(100),
}
const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex')
const bodyOf = (res: { body: Buffer; headers: Record<string, unknown> }): Buffer =>
  res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body) : res.body

let dir: Awaited<ReturnType<typeof tempDir>>
let root: string
let manifest: Manifest
const servers: Server[] = []

/** A node:http server on a free port: the middleware (or the handler) with `options`; 418 for `next`. */
async function start(kind: 'middleware' | 'handler', options: Record<string, unknown>): Promise<number> {
  const { createServer } = await import('node:http')
  const middleware = createPreencodeMiddleware(root, options)
  const handler = createPreencodeHandler(root, options)
  const server = createServer((req, res) => {
    if (kind === 'middleware')
      return middleware(req, res, () => {
        res.statusCode = 418
        res.end('next')
      })
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
    void handler(new Request(`http://x${req.url}`, { method: req.method, headers })).then(async (response) => {
      if (!response) return res.writeHead(418).end('next')
      res.writeHead(response.status, Object.fromEntries(response.headers))
      res.end(Buffer.from(await response.arrayBuffer()))
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  return typeof address === 'object' && address ? address.port : 0
}

beforeAll(async () => {
  dir = await tempDir('conventions')
  root = join(dir.path, 'site')
  for (const [path, text] of Object.entries(FILES)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), text)
  }
  ;({ manifest } = await compressDirectory(root, { formats: ['brotli', 'gzip'], cache: false }))
})

afterAll(async () => {
  for (const server of servers) server.close()
  await dir.remove()
})

describe('the specification: fallbacksOf', () => {
  const c = DEFAULT_CONVENTIONS
  const spa = { ...c, spa: true }
  it('clean URL, then SPA, then the 404 page, for extensionless paths only', () => {
    const about = { path: 'about', asked: 'about', hidden: false }
    expect(fallbacksOf(about, c, 'index.html', true)).toEqual([
      { path: 'about.html', status: 200 },
      { path: '404.html', status: 404 },
    ])
    expect(fallbacksOf(about, spa, 'index.html', false).map((f) => f.path)).toEqual(['about.html', 'index.html'])
    expect(fallbacksOf({ path: 'app.js', asked: 'app.js', hidden: false }, spa, 'index.html', true)).toEqual([
      { path: '404.html', status: 404 },
    ])
    // A directory URL is its index, never `blog/.html`; `v1.2` is not a clean URL of `v1.2.html`.
    expect(fallbacksOf({ path: 'blog/index.html', asked: 'blog/', hidden: false }, spa, 'index.html', false)).toEqual(
      [],
    )
    expect(fallbacksOf({ path: 'v1.2', asked: 'v1.2', hidden: false }, c, 'index.html', false)).toEqual([])
    expect(fallbacksOf({ path: '.env', asked: '.env', hidden: true }, spa, 'index.html', true)).toEqual([
      { path: '404.html', status: 404 },
    ])
  })

  it('options are checked, naming the option', () => {
    expect(resolveConventions({})).toEqual({ cleanUrls: true, spa: false })
    expect(() => resolveConventions({ spa: 'yes' as unknown as boolean })).toThrow(
      /`spa` is "yes"; accepted: true, false/,
    )
    // Through the registry, as the CLI calls it: the flag is named.
    const label = (key?: string) => (key === 'spa' ? '--spa' : `\`${key}\``)
    for (const server of ['nginx', 'apache', 'caddy', 'varnish', 'cloudfront'] as const) {
      const entry = SERVER_REGISTRY[server] as ServerEntry<object>
      expect(() => entry.resolveOptions({ root: '/srv', backend: 'h:1', spa: 'yes' }, label)).toThrow(/--spa is "yes"/)
    }
  })
})

describe.each(['middleware', 'handler'] as const)('the %s', (kind) => {
  it('/contact is contact.html with its variants, Vary and HTML cache policy, the query kept', async () => {
    const port = await start(kind, {})
    for (const path of ['/contact', '/contact?x=1', '/contact.html', '/guide/start']) {
      const res = await get(port, path, { 'accept-encoding': 'br' })
      expect(res.status, path).toBe(200)
      expect(res.headers['content-encoding'], path).toBe('br')
      expect(res.headers.vary).toBe('Accept-Encoding')
      expect(res.headers['cache-control']).toBe('no-cache')
      const expected = path.startsWith('/guide') ? FILES['guide/start.html']! : FILES['contact.html']!
      expect(sha(bodyOf(res))).toBe(sha(expected))
    }
    expect((await get(port, '/about')).status).toBe(301)
  })

  it('fallthrough (default): a missing path goes to the app; false: the 404 page, status 404, compressed', async () => {
    expect((await get(await start(kind, {}), '/missing')).status).toBe(418)
    const port = await start(kind, { fallthrough: false })
    for (const path of ['/missing', '/missing.js', '/no/such/', '/.env']) {
      const res = await get(port, path, { 'accept-encoding': 'br' })
      expect(res.status, path).toBe(404)
      expect(res.headers['content-encoding'], path).toBe('br')
      expect(res.headers.vary).toBe('Accept-Encoding')
      expect(res.headers['accept-ranges']).toBeUndefined()
      expect(sha(bodyOf(res))).toBe(sha(FILES['404.html']!))
    }
    const plain = await get(port, '/missing', { range: 'bytes=0-9', 'if-none-match': '*' })
    expect(plain.status).toBe(404)
    expect(plain.body.toString()).toBe(FILES['404.html'])
  })

  it('spa: unknown extensionless paths get index.html with 200; a missing asset does not', async () => {
    const port = await start(kind, { spa: true, fallthrough: false })
    const res = await get(port, '/app/route?tab=2', { 'accept-encoding': 'br' })
    expect(res.status).toBe(200)
    expect(sha(bodyOf(res))).toBe(sha(FILES['index.html']!))
    expect(sha(bodyOf(await get(port, '/contact')))).toBe(sha(FILES['contact.html']!))
    expect((await get(port, '/assets/missing.js')).status).toBe(404)
  })

  it('cleanUrls: false turns clean URLs off', async () => {
    expect((await get(await start(kind, { cleanUrls: false }), '/contact')).status).toBe(418)
  })
})

describe('the Cloudflare Worker', () => {
  async function worker(options: Record<string, unknown> = {}) {
    const files = cloudflareWorkerFiles(manifest, options)
    const data = files.files['preencode-site.js']!
    const site = JSON.parse(data.slice(data.indexOf('export default ') + 15)) as WorkerSite
    return createWorker(site)
  }
  const fetchText = async (w: Awaited<ReturnType<typeof worker>>, path: string) => {
    const res = await w.fetch(edgeRequest(`https://site.test${path}`, 'br'), assetsOf(root))
    const bytes = Buffer.from(await res.arrayBuffer())
    const text =
      res.headers.get('content-encoding') === 'br' ? brotliDecompressSync(bytes).toString() : bytes.toString()
    return { res, text }
  }

  it('clean URLs, the 404 page with status 404, and spa', async () => {
    const w = await worker()
    const contact = await fetchText(w, '/contact?x=1')
    expect(contact.res.status).toBe(200)
    expect(contact.text).toBe(FILES['contact.html'])
    expect(contact.res.headers.get('vary')).toBe('Accept-Encoding')
    const missing = await fetchText(w, '/missing')
    expect(missing.res.status).toBe(404)
    expect(missing.res.headers.get('content-encoding')).toBe('br')
    expect(missing.text).toBe(FILES['404.html'])
    expect((await fetchText(w, '/app/route')).res.status).toBe(404)
    const spa = await fetchText(await worker({ spa: true }), '/app/route')
    expect(spa.res.status).toBe(200)
    expect(spa.text).toBe(FILES['index.html'])
    expect((await fetchText(await worker({ notFoundPage: false }), '/missing')).text).toBe('')
  })
})
