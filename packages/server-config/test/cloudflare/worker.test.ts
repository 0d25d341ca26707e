// The Cloudflare Worker's runtime (`createWorker`) driven in Node with the fetch API: the static
// assets binding is a function reading the site folder, as workerd's does. The same requests in
// workerd itself are the e2e project `cloudflare-worker` (e2e/harness/cloudflare.ts); here are the
// cases that need a hand-made manifest or a header the shared suite does not send.
import { createHash, randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Manifest, ManifestFile } from '@preencode/core'
import {
  cloudflareWorkerFiles,
  negotiate,
  resolveServerConfigFiles,
  WORKER_MAX_ASSET_BYTES,
} from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { edgeChoice, edgeSafeCodings, edgeView } from '../../src/cloudflare/edge.js'
import { checkWorkerLimits } from '../../src/cloudflare/limits.js'
import { createWorker, type PreencodeWorker } from '../../src/cloudflare/runtime.js'
import { workerSiteData } from '../../src/cloudflare/site-data.js'
import { buildFixtureSite } from '../fixture.ts'
import { assetsOf, edgeRequest } from './helpers.ts'

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex')

let dir: Awaited<ReturnType<typeof tempDir>>
let root: string
let manifest: Manifest
let worker: PreencodeWorker

beforeAll(async () => {
  dir = await tempDir('cloudflare-worker')
  root = join(dir.path, 'site')
  manifest = await buildFixtureSite(root)
  worker = createWorker(workerSiteData(manifest, { index: 'index.html', hidden: ['.preencode-manifest.json'] }))
})
afterAll(() => dir.remove())

const withAll = (): ManifestFile => manifest.files.find((f) => f.variants.length === 3)!
const urlOf = (file: ManifestFile): string => `http://site.test/${file.path.replace(/(^|\/)index\.html$/, '$1')}`

describe('the edge model', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'gzip'],
    ['br, gzip', 'br'],
    ['gzip;q=0.5, br', 'br'],
    ['identity, br', undefined],
    ['zstd', undefined],
    ['*', undefined],
    [undefined, undefined],
    // Its strict grammar (issue 30 item 8): upper case, aliases and other parameters are not read.
    ['Gzip, br', 'br'],
    ['x-gzip, br', 'br'],
    ['gzip;level=1, br', 'br'],
    // The front line's own reading of weights (Miniflare), not RFC 9110's (issue 29).
    ['br;q=1.0001, gzip;q=0.5', 'br'],
    ['gzip, br;q=2', 'br'],
    ['br;q=0x1, gzip;q=0.5', 'gzip'],
    ['br;q=.5, gzip;q=0.5', 'gzip'],
  ])('%j: the front line picks %j', (header, pick) => {
    expect(edgeChoice(header)).toBe(pick)
  })

  it('keeps zstd always and gzip or br only when the edge would pick it', () => {
    expect(edgeSafeCodings('gzip, deflate, br, zstd', ['br', 'zstd', 'gzip'])).toEqual(['zstd', 'gzip'])
    expect(edgeSafeCodings('br', ['br', 'zstd', 'gzip'])).toEqual(['br', 'zstd'])
  })

  it('leaves every coding alone when it reads no element, and refuses identity on *;q=0', () => {
    expect(edgeSafeCodings('GZIP', ['br', 'zstd', 'gzip'])).toEqual(['br', 'zstd', 'gzip'])
    expect(edgeView('*;q=0')).toEqual({ untouched: false, pick: undefined, refusesIdentity: true })
    expect(edgeView('*;q=0, gzip').refusesIdentity).toBe(false)
  })
})

describe('createWorker', () => {
  it("negotiates on the visitor's Accept-Encoding, not the edge's rewritten header", async () => {
    const env = assetsOf(root)
    const file = withAll()
    const res = await worker.fetch(edgeRequest(urlOf(file), 'zstd'), env)
    expect(res.headers.get('content-encoding')).toBe('zstd')
    const none = await worker.fetch(edgeRequest(urlOf(file), undefined), env)
    expect(none.headers.get('content-encoding')).toBeNull()
    expect(sha256(new Uint8Array(await none.arrayBuffer()))).toBe(file.sha256)
    expect(none.headers.get('vary')).toBe('Accept-Encoding')
  })

  it('sends the stored variant byte for byte with its headers', async () => {
    const env = assetsOf(root)
    const file = withAll()
    const chosen = negotiate('br', ['br'])
    const res = await worker.fetch(edgeRequest(urlOf(file), 'br'), env)
    const variant = file.variants.find((v) => v.encoding === chosen)!
    const body = new Uint8Array(await res.arrayBuffer())
    expect(sha256(body)).toBe(variant.sha256)
    expect(res.headers.get('content-length')).toBe(String(variant.size))
    expect(res.headers.get('content-type')).toBe(file.contentType)
    expect(res.headers.get('cache-control')).toBe(file.cacheControl)
    expect(res.headers.get('etag')).toBe(`"${variant.sha256.slice(0, 32)}"`)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('answers HEAD and conditionals without touching the binding', async () => {
    const env = assetsOf(root)
    const file = withAll()
    const head = await worker.fetch(
      new Request(urlOf(file), { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } }),
      env,
    )
    expect(head.status).toBe(200)
    expect(head.body).toBeNull()
    expect(head.headers.get('content-length')).toBe(String(file.variants.find((v) => v.encoding === 'gzip')!.size))
    const etag = head.headers.get('etag')!
    const cached = await worker.fetch(
      new Request(urlOf(file), { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } }),
      env,
    )
    expect(cached.status).toBe(304)
    expect(cached.headers.get('content-type')).toBeNull()
    const failed = await worker.fetch(
      new Request(urlOf(file), { headers: { 'accept-encoding': 'gzip', 'if-match': '"other"' } }),
      env,
    )
    expect(failed.status).toBe(412)
    // An empty answer has no coding (the front line would act on one: issue 30 item 8).
    expect(failed.headers.get('content-encoding')).toBeNull()
    expect(env.requested).toEqual([])
  })

  it('cuts a range from the stream and answers 416 past the end', async () => {
    const env = assetsOf(root)
    const file = withAll()
    const stored = await readFile(join(root, file.path))
    const res = await worker.fetch(new Request(urlOf(file), { headers: { range: 'bytes=5-1204' } }), env)
    expect(res.status).toBe(206)
    expect(res.headers.get('content-range')).toBe(`bytes 5-1204/${stored.length}`)
    expect(Buffer.from(await res.arrayBuffer()).equals(stored.subarray(5, 1205))).toBe(true)
    const past = await worker.fetch(new Request(urlOf(file), { headers: { range: `bytes=${stored.length}-` } }), env)
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe(`bytes */${stored.length}`)
    const pastBr = await worker.fetch(edgeRequest(urlOf(file), 'br', { range: 'bytes=99999999-' }), env)
    expect(pastBr.status).toBe(416)
    expect(pastBr.headers.get('content-encoding')).toBeNull()
  })

  it('maps folders to index.html, hides the manifest, 404s the rest, refuses other methods', async () => {
    const env = assetsOf(root)
    const index = manifest.files.find((f) => f.path === 'index.html')!
    const res = await worker.fetch(new Request('http://site.test/?x=1'), env)
    expect(res.status).toBe(200)
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(index.sha256)
    expect((await worker.fetch(new Request('http://site.test/.preencode-manifest.json'), env)).status).toBe(404)
    expect((await worker.fetch(new Request('http://site.test/nope.js'), env)).status).toBe(404)
    // Names of Object.prototype's members are not files of the site.
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect((await worker.fetch(new Request(`http://site.test/${name}`), env)).status, name).toBe(404)
    expect((await worker.fetch(new Request('http://site.test/%E0%A4%A'), env)).status).toBe(400)
    const post = await worker.fetch(new Request('http://site.test/', { method: 'POST' }), env)
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
  })

  it('404s dotfiles and dot-folders even when the site data lists them; /.well-known/ is served', async () => {
    const index = manifest.files.find((f) => f.path === 'index.html')!
    const bytes = await readFile(join(root, 'index.html'))
    const paths = ['.env', '.git/config', 'docs/.secret.json', '.well-known/security.txt', '.well-known/.hidden']
    const listed = { ...manifest, files: [...manifest.files, ...paths.map((path) => ({ ...index, path }))] }
    const dotted = createWorker(workerSiteData(listed, { index: 'index.html', hidden: [] }))
    const env = { ASSETS: { fetch: async () => new Response(bytes) } }
    const statuses = Object.fromEntries(
      await Promise.all(
        paths.map(async (path) => [path, (await dotted.fetch(new Request(`http://site.test/${path}`), env)).status]),
      ),
    )
    expect(statuses).toEqual({
      '.env': 404,
      '.git/config': 404,
      'docs/.secret.json': 404,
      '.well-known/security.txt': 200,
      '.well-known/.hidden': 404,
    })
  })

  it('decodes the gzip variant for a site built without originals', async () => {
    const nokeep = join(dir.path, 'nokeep')
    const m = await buildFixtureSite(nokeep, { keepOriginals: false })
    const w = createWorker(workerSiteData(m, { index: 'index.html', hidden: [] }))
    const file = m.files.find((f) => !f.originalOnDisk)!
    const res = await w.fetch(
      new Request(urlOf(file), { headers: { 'accept-encoding': 'identity' } }),
      assetsOf(nokeep),
    )
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('content-length')).toBe(String(file.size))
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(file.sha256)
  })

  it('leaves .assetsignore out of the data once a later compress lists it', () => {
    const listed = { ...withAll(), path: '.assetsignore', variants: [] }
    const { files } = cloudflareWorkerFiles({ ...manifest, files: [...manifest.files, listed] })
    expect(files['preencode-site.js']).not.toContain('".assetsignore":')
    expect(files['preencode-site.js']).toContain('"index.html":')
  })

  it('refuses site data of another version', () => {
    const data = workerSiteData(manifest, { index: 'index.html', hidden: [] })
    expect(() => createWorker({ ...data, version: 2 as 1 })).toThrow(/version 2.*config cloudflare/)
  })
})

describe("Workers' limits, checked at generate time", () => {
  it('names a file above 25 MiB', () => {
    const big = { ...withAll(), path: 'media/huge.json', size: WORKER_MAX_ASSET_BYTES + 1 }
    expect(() => cloudflareWorkerFiles({ ...manifest, files: [...manifest.files, big] })).toThrow(
      /media\/huge\.json is 26214401 bytes.*25 MiB/,
    )
  })

  it('counts originals, variants and deltas against the plan', () => {
    const files = Array.from({ length: 5001 }, (_, i) => ({ ...withAll(), path: `p/${i}.js` }))
    const many = { ...manifest, files }
    expect(() => checkWorkerLimits(many, [], 'free')).toThrow(/20004 asset files.*20000.*Workers Free.*--plan paid/)
    expect(() => checkWorkerLimits(many, [], 'paid')).not.toThrow()
  })

  it('checks the compressed size of the Worker with its data', () => {
    // Incompressible: 3.1 MB of random bytes stay above 3 MB after gzip, far below 10 MB.
    const noise = randomBytes(3_100_000).toString('latin1')
    expect(() => checkWorkerLimits(manifest, [noise], 'free')).toThrow(
      /bytes compressed, above the 3000000 of Workers Free/,
    )
    expect(() => checkWorkerLimits(manifest, [noise], 'paid')).not.toThrow()
  })

  it("is not one of the plugins' serverConfigs: it says to run the CLI after the build", () => {
    expect(() => resolveServerConfigFiles([{ server: 'cloudflare', path: 'cloudflare' }], root, 'vite')).toThrow(
      /serverConfigs\[0\]` \(cloudflare\) writes a folder.*preencode config cloudflare <dir> --out <folder>/,
    )
  })

  it('validates options naming the option', () => {
    expect(() => cloudflareWorkerFiles(manifest, { plan: 'pro' as 'free' })).toThrow(/`plan`.*free, paid/)
    expect(() => cloudflareWorkerFiles(manifest, { name: 'My Site' })).toThrow(/`name`/)
    expect(() => cloudflareWorkerFiles(manifest, { indexFile: 'a/b.html' })).toThrow(/`indexFile`/)
  })
})
