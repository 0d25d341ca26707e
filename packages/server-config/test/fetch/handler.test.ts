// createPreencodeHandler called directly with `new Request` (Node's Fetch API): the stored
// bytes as they are, decoding to the original; ranges, preconditions, HEAD, dotfiles, and
// `undefined` for what is not a file of the site.
import { createHash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'
import type { Manifest, ManifestFile } from '@preencode/core'
import { createPreencodeHandler, type PreencodeHandler } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bigText, buildFixtureSite } from '../fixture.ts'

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex')
const DECODE: Record<string, (b: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  zstd: zstdDecompressSync,
}

let dir: { path: string; remove: () => Promise<void> }
let root: string
let manifest: Manifest
let handle: PreencodeHandler
let nokeep: { handle: PreencodeHandler; manifest: Manifest }

beforeAll(async () => {
  dir = await tempDir('fetch-handler')
  root = join(dir.path, 'keep')
  manifest = await buildFixtureSite(root, { big: true })
  handle = createPreencodeHandler(root)
  const nokeepRoot = join(dir.path, 'nokeep')
  const nokeepManifest = await buildFixtureSite(nokeepRoot, { keepOriginals: false })
  nokeep = { handle: createPreencodeHandler(nokeepRoot), manifest: nokeepManifest }
})
afterAll(async () => {
  await dir.remove()
})

const file = (path: string, m = manifest): ManifestFile => m.files.find((f) => f.path === path)!

async function ask(path: string, headers: Record<string, string> = {}, method = 'GET', h = handle) {
  const response = await h(new Request(`http://site.test${path}`, { method, headers }))
  if (!response) return undefined
  return { response, body: Buffer.from(await response.arrayBuffer()) }
}

describe('createPreencodeHandler', () => {
  it('sends the stored variant as it is, which decodes to the original, with the headers of the middleware', async () => {
    const js = file('assets/main-Ab3dEf9h.js')
    for (const [accept, expected] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, zstd', 'zstd'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const got = (await ask(`/${js.path}`, { 'accept-encoding': accept }))!
      expect(got.response.status).toBe(200)
      expect(got.response.headers.get('content-encoding') ?? undefined, accept).toBe(expected)
      const stored = expected ? js.variants.find((v) => v.encoding === expected)!.path : js.path
      expect(got.body.equals(await readFile(join(root, stored))), accept).toBe(true)
      expect(sha(expected ? DECODE[expected]!(got.body) : got.body)).toBe(js.sha256)
      expect(got.response.headers.get('content-length')).toBe(String(got.body.length))
      expect(got.response.headers.get('vary')).toBe('Accept-Encoding')
      expect(got.response.headers.get('content-type')).toBe(js.contentType)
      expect(got.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(got.response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(got.response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/)
    }
  })

  it('redirects a directory asked for without its slash (301, the query kept), as nginx, Apache and Caddy do', async () => {
    for (const [path, location] of [
      ['/about', '/about/'],
      ['/about?x=1&y', '/about/?x=1&y'],
      [
        '/guides/a-rather-long-section-name/and-an-even-longer-page-name',
        '/guides/a-rather-long-section-name/and-an-even-longer-page-name/',
      ],
    ] as const) {
      const got = (await ask(path))!
      expect(got.response.status, path).toBe(301)
      expect(got.response.headers.get('location'), path).toBe(location)
      expect(got.body.length).toBe(0)
    }
    // A folder without an index: not a file of the site.
    expect(await ask('/assets')).toBeUndefined()
    expect(await ask('/guides/a-rather-long-section-name')).toBeUndefined()
  })

  it('serves the index of a directory URL, and HEAD like GET without a body', async () => {
    const get = (await ask('/about/', { 'accept-encoding': 'br' }))!
    expect(get.response.status).toBe(200)
    expect(sha(brotliDecompressSync(get.body))).toBe(file('about/index.html').sha256)
    const head = (await ask('/about/', { 'accept-encoding': 'br' }, 'HEAD'))!
    expect(head.body.length).toBe(0)
    for (const name of ['content-length', 'content-encoding', 'etag', 'vary', 'content-type', 'last-modified'])
      expect(head.response.headers.get(name), name).toBe(get.response.headers.get(name))
  })

  it('answers Range with the stored bytes of that representation, If-Range, and 416', async () => {
    const js = file('assets/main-Ab3dEf9h.js')
    const gz = await readFile(join(root, js.variants.find((v) => v.encoding === 'gzip')!.path))
    const part = (await ask(`/${js.path}`, { 'accept-encoding': 'gzip', range: 'bytes=10-49' }))!
    expect(part.response.status).toBe(206)
    expect(part.response.headers.get('content-range')).toBe(`bytes 10-49/${gz.length}`)
    expect(part.body.equals(gz.subarray(10, 50))).toBe(true)
    const brTag = (await ask(`/${js.path}`, { 'accept-encoding': 'br' }))!.response.headers.get('etag')!
    const whole = (await ask(`/${js.path}`, { 'accept-encoding': 'gzip', range: 'bytes=0-9', 'if-range': brTag }))!
    expect(whole.response.status).toBe(200)
    expect(whole.body.equals(gz)).toBe(true)
    const beyond = (await ask(`/${js.path}`, { 'accept-encoding': 'gzip', range: `bytes=${gz.length}-` }))!
    expect(beyond.response.status).toBe(416)
    expect(beyond.response.headers.get('content-range')).toBe(`bytes */${gz.length}`)
  })

  it('answers 304 and 412 per representation (If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since)', async () => {
    const path = '/assets/main-Ab3dEf9h.js'
    const br = (await ask(path, { 'accept-encoding': 'br' }))!.response
    const etag = br.headers.get('etag')!
    const lastModified = br.headers.get('last-modified')!
    const notModified = (await ask(path, { 'accept-encoding': 'br', 'if-none-match': etag }))!
    expect(notModified.response.status).toBe(304)
    expect(notModified.body.length).toBe(0)
    expect(notModified.response.headers.get('vary')).toBe('Accept-Encoding')
    expect((await ask(path, { 'accept-encoding': 'gzip', 'if-none-match': etag }))!.response.status).toBe(200)
    expect((await ask(path, { 'accept-encoding': 'br', 'if-modified-since': lastModified }))!.response.status).toBe(304)
    expect((await ask(path, { 'accept-encoding': 'gzip', 'if-match': etag }))!.response.status).toBe(412)
    expect((await ask(path, { 'accept-encoding': 'br', 'if-match': etag }))!.response.status).toBe(200)
    const before = new Date(Date.parse(lastModified) - 60_000).toUTCString()
    expect((await ask(path, { 'if-unmodified-since': before }))!.response.status).toBe(412)
    expect((await ask(path, { 'if-unmodified-since': lastModified }))!.response.status).toBe(200)
  })

  it('streams a large file: the whole zstd variant and a range deep inside it', async () => {
    const big = file('big/huge.txt')
    const zst = await readFile(join(root, big.variants.find((v) => v.encoding === 'zstd')!.path))
    const got = (await ask('/big/huge.txt', { 'accept-encoding': 'zstd' }))!
    expect(got.response.body).toBeInstanceOf(ReadableStream)
    expect(got.body.equals(zst)).toBe(true)
    expect(sha(zstdDecompressSync(got.body))).toBe(sha(bigText()))
    const start = zst.length - 200_000
    const part = (await ask('/big/huge.txt', { 'accept-encoding': 'zstd', range: `bytes=${start}-` }))!
    expect(part.body.equals(zst.subarray(start))).toBe(true)
  })

  it('keepOriginals: false — decodes the gzip variant for a client that takes no coding', async () => {
    const js = file('assets/main-Ab3dEf9h.js', nokeep.manifest)
    expect(js.originalOnDisk).toBe(false)
    const got = (await ask(`/${js.path}`, {}, 'GET', nokeep.handle))!
    expect(got.response.status).toBe(200)
    expect(got.response.headers.get('content-encoding')).toBeNull()
    expect(got.response.headers.get('accept-ranges')).toBeNull()
    expect(sha(got.body)).toBe(js.sha256)
    expect(got.response.headers.get('content-length')).toBe(String(js.size))
  })

  it('refuses an index that is not a file name inside the folder, naming the option', () => {
    for (const index of ['../secret.html', '/etc/passwd', 'docs/', ''])
      expect(() => createPreencodeHandler(root, { index }), index).toThrow(/`index` is .*give a file name relative/)
    expect(() => createPreencodeHandler(root, { index: 'home.html' })).not.toThrow()
  })

  it('is undefined for what is not a file of the site; 404 for a dotfile the site has', async () => {
    expect(await ask('/missing.js')).toBeUndefined()
    expect(await ask('/data.json', {}, 'POST')).toBeUndefined()
    expect(await ask('/%E0%A4%A')).toBeUndefined()
    expect(await ask('/assets/main-Ab3dEf9h.js.br')).toBeUndefined() // a variant by its own URL
    expect(await ask('/.auth/login')).toBeUndefined()
    const hidden = (await ask('/.preencode-manifest.json'))!
    expect(hidden.response.status).toBe(404)
    expect(hidden.body.length).toBe(0)
    await writeFile(join(root, '.env'), 'SECRET=1\n')
    expect((await ask('/.env'))!.response.status).toBe(404)
    expect((await ask('/%2eenv'))!.response.status).toBe(404)
  })
})
