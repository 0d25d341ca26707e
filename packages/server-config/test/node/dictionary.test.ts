// RFC 9842 in the Node middleware, over real HTTP: a site built twice (a versioned chunk edited
// between the builds, deltas from the cache's build history) is served; a browser-like request
// with the old version's hash gets a dcb/dcz delta that decodes to the new file; every request
// without a valid dictionary match gets byte-for-byte the answer of the same site without deltas.
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http'
import { dirname, join } from 'node:path'
import {
  compress as compressDirectory,
  decodeWithDictionary,
  type Manifest,
  resolveDeltaOptions,
  writeDeltas,
} from '@preencode/core'
import { createPreencodeMiddleware, verifySite } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface Res {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

function get(port: number, path: string, headers: Record<string, string | string[]>, method = 'GET'): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, method, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  )
}

const CHROMIUM_AE = 'gzip, deflate, br, zstd, dcb, dcz'
const APP_V1 = Buffer.from(
  Array.from(
    { length: 3000 },
    (_, i) => `export function f${i}(x) { return x * ${i % 17} + "${(i * 7919) % 1000}" }\n`,
  ).join(''),
)
const APP_V2 = Buffer.concat([
  APP_V1.subarray(0, 50_000),
  Buffer.from('export const edited = "version 2"\n'),
  APP_V1.subarray(50_000),
])
const b64 = (data: Buffer): string => createHash('sha256').update(data).digest('base64')

/**
 * Header values a client controls that must never select a delta (nor any other file). A NUL
 * cannot be sent through Node's client (and Node's server answers 400 before any handler);
 * the parser's own test covers it.
 */
export const HOSTILE_AVAILABLE_DICTIONARY: readonly (string | string[])[] = [
  '',
  b64(APP_V1),
  `:${b64(APP_V1)}`,
  `:${b64(APP_V1)}:, :${b64(APP_V1)}:`,
  [`:${b64(APP_V1)}:`, `:${b64(APP_V1)}:`],
  `:${b64(APP_V1)}:;p=1`,
  `:${b64(APP_V1).slice(0, 40)}:`,
  `:${createHash('sha256').update(APP_V1).digest('base64url')}=:`,
  `:../../../../../../../../../etc/passwd/../../../x=:`,
  `:..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd=:`,
  `:${createHash('sha512').update(APP_V1).digest('base64')}:`,
  `:${'A'.repeat(4096)}=:`,
  `:${b64(Buffer.from('a dictionary nobody has'))}:`,
]

describe('middleware: Compression Dictionary Transport', () => {
  let site: Awaited<ReturnType<typeof tempDir>>
  let cache: Awaited<ReturnType<typeof tempDir>>
  let withDeltas: Server
  let baseline: Server
  let port = 0
  let basePort = 0
  let manifest: Manifest

  async function build(app: { name: string; bytes: Buffer }): Promise<Manifest> {
    await rm(join(site.path, 'assets'), { recursive: true, force: true })
    for (const [path, bytes] of Object.entries({
      'index.html': Buffer.from(
        `<!doctype html><script type="module" src="/assets/${app.name}"></script>`.padEnd(3000, ' '),
      ),
      [`assets/${app.name}`]: app.bytes,
    })) {
      await mkdir(dirname(join(site.path, path)), { recursive: true })
      await writeFile(join(site.path, path), bytes)
    }
    const compressed = await compressDirectory(site.path, { cache: cache.path })
    return (await writeDeltas(site.path, compressed.manifest, resolveDeltaOptions(), { cacheDir: cache.path })).manifest
  }

  beforeAll(async () => {
    site = await tempDir('mw-dict-site')
    cache = await tempDir('mw-dict-cache')
    await build({ name: 'app-Ab12Cd34.js', bytes: APP_V1 })
    manifest = await build({ name: 'app-Ef56Gh78.js', bytes: APP_V2 })
    withDeltas = createServer(createPreencodeMiddleware(site.path))
    // The same site as it would be served without deltas: the answer every other request must get.
    const plain: Manifest = {
      ...manifest,
      files: manifest.files.map(({ deltas: _d, useAsDictionary: _u, ...file }) => file),
    }
    baseline = createServer(createPreencodeMiddleware(site.path, { manifest: plain }))
    port = await listen(withDeltas)
    basePort = await listen(baseline)
  })
  afterAll(async () => {
    withDeltas.close()
    baseline.close()
    await site.remove()
    await cache.remove()
  })

  const app = (): NonNullable<Manifest['files'][number]> =>
    manifest.files.find((f) => f.path === 'assets/app-Ef56Gh78.js')!

  it('announces the versioned chunk with Use-As-Dictionary', async () => {
    const res = await get(port, '/assets/app-Ef56Gh78.js', { 'accept-encoding': 'br' })
    expect(res.headers['use-as-dictionary']).toBe('match="app-*.js"')
    expect(res.headers['content-encoding']).toBe('br')
    const page = await get(port, '/', { 'accept-encoding': 'br' })
    expect(page.headers['use-as-dictionary']).toBeUndefined()
  })

  it('sends the smallest accepted delta with its own headers, and it decodes to version 2', async () => {
    const headers = { 'accept-encoding': CHROMIUM_AE, 'available-dictionary': `:${b64(APP_V1)}:` }
    const res = await get(port, '/assets/app-Ef56Gh78.js', headers)
    const smallest = [...app().deltas!].sort((a, b) => a.size - b.size)[0]!
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBe(smallest.encoding)
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(res.headers.vary).toBe('Accept-Encoding, Available-Dictionary')
    expect(Number(res.headers['content-length'])).toBe(res.body.byteLength)
    expect((await decodeWithDictionary(smallest.encoding, res.body, APP_V1)).equals(APP_V2)).toBe(true)
    const br = await get(port, '/assets/app-Ef56Gh78.js', { 'accept-encoding': CHROMIUM_AE })
    expect(br.headers['content-encoding']).toBe('br')
    expect(res.headers.etag).not.toBe(br.headers.etag)
    expect(res.body.byteLength).toBeLessThan(br.body.byteLength * 0.05)
    for (const encoding of ['dcb', 'dcz'] as const) {
      const only = await get(port, '/assets/app-Ef56Gh78.js', {
        'accept-encoding': `br, ${encoding}`,
        'available-dictionary': `:${b64(APP_V1)}:`,
      })
      expect(only.headers['content-encoding']).toBe(encoding)
      expect((await decodeWithDictionary(encoding, only.body, APP_V1)).equals(APP_V2)).toBe(true)
    }
    // HEAD and a revalidation behave per representation.
    const head = await get(port, '/assets/app-Ef56Gh78.js', headers, 'HEAD')
    expect(head.headers['content-length']).toBe(res.headers['content-length'])
    expect(head.body.byteLength).toBe(0)
    expect(
      (await get(port, '/assets/app-Ef56Gh78.js', { ...headers, 'if-none-match': res.headers.etag! })).status,
    ).toBe(304)
    expect(
      (
        await get(port, '/assets/app-Ef56Gh78.js', {
          'accept-encoding': CHROMIUM_AE,
          'if-none-match': res.headers.etag!,
        })
      ).status,
    ).toBe(200)
  })

  const comparable = (res: Res): unknown => {
    const { date: _date, 'use-as-dictionary': _u, connection: _c, 'keep-alive': _k, ...headers } = res.headers
    return { status: res.status, headers, body: createHash('sha256').update(res.body).digest('hex') }
  }

  const cases: [string, Record<string, string | string[]>][] = [
    ['no Available-Dictionary', { 'accept-encoding': CHROMIUM_AE }],
    ['dcb/dcz not accepted', { 'accept-encoding': 'gzip, br, zstd', 'available-dictionary': `:${b64(APP_V1)}:` }],
    ['dcb;q=0, dcz;q=0', { 'accept-encoding': 'br, dcb;q=0, dcz;q=0', 'available-dictionary': `:${b64(APP_V1)}:` }],
    ['only *', { 'accept-encoding': '*', 'available-dictionary': `:${b64(APP_V1)}:` }],
    ['no Accept-Encoding', { 'available-dictionary': `:${b64(APP_V1)}:` }],
    ["the new version's own hash", { 'accept-encoding': CHROMIUM_AE, 'available-dictionary': `:${b64(APP_V2)}:` }],
    ...HOSTILE_AVAILABLE_DICTIONARY.map((value): [string, Record<string, string | string[]>] => [
      `hostile ${JSON.stringify(value).slice(0, 60)}`,
      { 'accept-encoding': CHROMIUM_AE, 'available-dictionary': value },
    ]),
  ]
  for (const [label, headers] of cases) {
    it(`answers exactly as without deltas: ${label}`, async () => {
      for (const path of [
        '/assets/app-Ef56Gh78.js',
        '/',
        '/index.html',
        '/assets/app-Ab12Cd34.js',
        '/.preencode-manifest.json',
      ]) {
        const [res, expected] = await Promise.all([get(port, path, headers), get(basePort, path, headers)])
        expect(comparable(res), `${label} ${path}`).toEqual(comparable(expected))
        expect(res.headers['content-encoding'] ?? '', `${label} ${path}`).not.toMatch(/dc[bz]/)
      }
    })
  }

  it('verify checks every delta as a browser holding its dictionary asks for it', async () => {
    const good = await verifySite(`http://127.0.0.1:${port}/`, manifest, site.path)
    const deltaChecks = good.checks.filter((c) => c.acceptEncoding === 'dcb' || c.acceptEncoding === 'dcz')
    expect(deltaChecks).toHaveLength(app().deltas!.length)
    expect(good.failures).toEqual([])
    // The same site served without deltas: verify says which delta did not come back.
    const bad = await verifySite(`http://127.0.0.1:${basePort}/`, manifest, site.path)
    expect(bad.failures.map((f) => f.acceptEncoding).sort()).toEqual(['dcb', 'dcz'])
    expect(bad.failures[0]!.problems.join(' ')).toMatch(/Content-Encoding .*expected dc[bz]/)
  })

  it('never serves a delta path requested with a hostile header for another file', async () => {
    const delta = app().deltas![0]!
    const res = await get(port, `/${delta.path.replace(/\+/g, '%2B')}`, { 'accept-encoding': CHROMIUM_AE })
    // Not in the manifest: passed on (404 here, no next handler), never decoded or mislabelled.
    expect(res.status).toBe(404)
    expect(await readFile(join(site.path, delta.path))).toHaveLength(delta.size)
  })
})
