// The Node middleware and files as an experienced sirv / express.static user expects them:
// dotfiles ignored even when the manifest lists them (issue 19, item 5), an If-Modified-Since in
// the future ignored (RFC 9110 §13.1.3), a file the manifest does not list yet served as it is,
// and a folder without a manifest (what `deploy` writes) served from its sidecars and deltas.
import { createHash } from 'node:crypto'
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { dirname, join } from 'node:path'
import { compress as compressDirectory, MANIFEST_FILENAME, resolveDeltaOptions, writeDeltas } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compressFixture, fixtureFiles } from '../fixture.ts'
import { get, serve } from './helpers.ts'

async function writeAll(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, contents] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), contents)
  }
}

/** What a site folder holds besides its pages: secrets, our own state, leftovers of a killed run. */
const DOTFILES: Record<string, string> = {
  '.env': 'SECRET_TOKEN=do-not-serve\n',
  '.preencode-deploy-state.json': JSON.stringify({ version: 1, deploys: [{ keys: ['index.html'] }] }),
  '.preencode-tmp-0123456789ab': 'half a deploy\n',
  'assets/.main-Ab3dEf9h.js.tmp-1234-abcd': 'half a write\n',
  '.git/config': '[core]\n\trepositoryformatversion = 0\n',
  'docs/.secret.json': JSON.stringify({ secret: 'x'.repeat(2000) }),
  '.well-known/.hidden': 'not public\n',
}
const WELL_KNOWN = '.well-known/security.txt'

let dir: Awaited<ReturnType<typeof tempDir>>
let site: { server: Server; port: number; root: string }

beforeAll(async () => {
  dir = await tempDir('middleware-files')
  const root = join(dir.path, 'site')
  await writeAll(root, { ...fixtureFiles(), ...DOTFILES, [WELL_KNOWN]: 'Contact: mailto:security@example.com\n' })
  const manifest = await compressFixture(root)
  // The manifest lists them (a scan lists every file): the middleware must still refuse them.
  expect(manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(Object.keys(DOTFILES)))
  site = { ...(await serve(root)), root }
})
afterAll(async () => {
  site.server.close()
  await dir.remove()
})

describe('dotfiles', () => {
  it('the site has are 404 (never passed on to a handler that may serve them), encoded or not; /.well-known/ is served', async () => {
    for (const path of Object.keys(DOTFILES)) {
      for (const url of [`/${path}`, `/${path.replace(/(^|\/)\./, '$1%2e')}`, `/${path}?x=1`]) {
        for (const accept of [undefined, 'gzip, deflate, br, zstd']) {
          const res = await get(site.port, url, accept ? { 'accept-encoding': accept } : {})
          expect(res.status, `${url} ${accept}`).toBe(404)
          expect(res.body.length, url).toBe(0)
        }
      }
    }
    // Not a file of the site: the app's (its own `/.auth/` route), as sirv and express.static pass it on.
    expect((await get(site.port, '/about/../.env')).status).toBe(418)
    expect((await get(site.port, '/.auth/login')).status).toBe(418)
    const wellKnown = await get(site.port, `/${WELL_KNOWN}`)
    expect(wellKnown.status).toBe(200)
    expect(wellKnown.body.toString()).toContain('Contact:')
    // Still 404 from the middleware itself (it was before): the manifest is ours to hide.
    expect((await get(site.port, '/.preencode-manifest.json')).status).toBe(404)
  })
})

describe('If-Modified-Since', () => {
  it('a date in the future is ignored (RFC 9110 §13.1.3); the Last-Modified date still gives 304', async () => {
    const full = await get(site.port, '/data.json', { 'accept-encoding': 'br' })
    expect(full.status).toBe(200)
    const future = new Date(Date.UTC(2999, 0, 1)).toUTCString()
    const res = await get(site.port, '/data.json', { 'accept-encoding': 'br', 'if-modified-since': future })
    expect(res.status).toBe(200)
    expect(res.body.equals(full.body)).toBe(true)
    const since = full.headers['last-modified'] as string
    expect((await get(site.port, '/data.json', { 'accept-encoding': 'br', 'if-modified-since': since })).status).toBe(
      304,
    )
  })
})

describe('a file the manifest does not list', () => {
  it('is served as it is on disk (identity), with every header; sidecars beside it are not trusted', async () => {
    const name = 'assets/late-Zz98Yy76.js'
    const bytes = Buffer.from(`export const late = 1\n${'// a new asset, copied in after compress\n'.repeat(80)}`)
    await writeFile(join(site.root, name), bytes)
    await writeFile(join(site.root, `${name}.br`), 'not the brotli of this file')
    const res = await get(site.port, `/${name}`, { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.body.equals(bytes)).toBe(true)
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(res.headers['content-length']).toBe(String(bytes.length))
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers.vary).toBe('Accept-Encoding')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    // A manifest exists: its build decides what is announced, so nothing is derived here.
    expect(res.headers['use-as-dictionary']).toBeUndefined()
    const etag = res.headers.etag as string
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-identity"$/)
    expect((await get(site.port, `/${name}`, { 'if-none-match': etag })).status).toBe(304)
    const part = await get(site.port, `/${name}`, { range: 'bytes=0-9' })
    expect(part.status).toBe(206)
    expect(part.body.equals(bytes.subarray(0, 10))).toBe(true)
    // Still passed on: nothing on disk, a sidecar's own URL, a path that leaves the root.
    for (const path of ['/missing.js', `/${name}.br`, '/assets/main-Ab3dEf9h.js.gz', '//data.json'])
      expect((await get(site.port, path)).status, path).toBe(418)
  })
})

describe('a folder without a manifest (what `deploy` writes)', () => {
  const CHROMIUM = 'gzip, deflate, br, zstd, dcb, dcz'
  const V1 = Buffer.from(
    Array.from({ length: 2000 }, (_, i) => `export function f${i}(x) { return x * ${i % 13} }\n`).join(''),
  )
  const V2 = Buffer.concat([V1.subarray(0, 30_000), Buffer.from('export const edited = 2\n'), V1.subarray(30_000)])
  let built: { server: Server; port: number }
  let deployed: { server: Server; port: number }

  beforeAll(async () => {
    const root = join(dir.path, 'built')
    const cache = join(dir.path, 'cache')
    for (const [name, bytes] of [
      ['app-Ab12Cd34.js', V1],
      ['app-Ef56Gh78.js', V2],
    ] as const) {
      await rm(join(root, 'assets'), { recursive: true, force: true })
      await writeAll(root, { ...fixtureFiles(), [`assets/${name}`]: bytes })
      const { manifest } = await compressDirectory(root, { cache })
      await writeDeltas(root, manifest, resolveDeltaOptions(), { cacheDir: cache })
    }
    const copy = join(dir.path, 'deployed')
    await cp(root, copy, { recursive: true, preserveTimestamps: true })
    await rm(join(copy, MANIFEST_FILENAME))
    built = await serve(root)
    deployed = await serve(copy)
  })
  afterAll(() => {
    built.server.close()
    deployed.server.close()
  })

  it('answers like the built folder: the same coding, bytes and headers (deltas included), ETags aside', async () => {
    const v1 = `:${createHash('sha256').update(V1).digest('base64')}:`
    const other = `:${createHash('sha256').update('no such dictionary').digest('base64')}:`
    const cases: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'gzip' },
      { 'accept-encoding': 'br' },
      { 'accept-encoding': 'zstd' },
      { 'accept-encoding': 'gzip, deflate, br, zstd' },
      { 'accept-encoding': CHROMIUM, 'available-dictionary': v1 },
      { 'accept-encoding': 'gzip, deflate, br, zstd, dcz', 'available-dictionary': v1 },
      { 'accept-encoding': CHROMIUM, 'available-dictionary': other },
      { 'accept-encoding': 'br', range: 'bytes=5-20' },
    ]
    const names = ['content-encoding', 'content-type', 'content-length', 'vary', 'cache-control', 'use-as-dictionary']
    let deltas = 0
    for (const path of ['/', '/about/', '/assets/app-Ef56Gh78.js', '/assets/main-Ab3dEf9h.js', '/data.json']) {
      for (const headers of cases) {
        const [a, b] = [await get(built.port, path, headers), await get(deployed.port, path, headers)]
        const where = `${path} ${JSON.stringify(headers)}`
        expect(b.status, where).toBe(a.status)
        for (const name of names) expect(b.headers[name], `${name} of ${where}`).toBe(a.headers[name])
        expect(b.body.equals(a.body), where).toBe(true)
        if (String(a.headers['content-encoding']).startsWith('dc')) deltas++
      }
    }
    expect(deltas, 'delta responses compared').toBe(2)
    expect(await readFile(join(dir.path, 'deployed', 'assets/app-Ef56Gh78.js'))).toHaveLength(V2.length)
  })
})

describe('a folder without a manifest whose file was rewritten after it was compressed', () => {
  it('sends the new file, never a sidecar older than it (the invariant without a manifest)', async () => {
    const root = join(dir.path, 'rewritten')
    await writeAll(root, fixtureFiles())
    await compressDirectory(root, { cache: join(dir.path, 'cache') })
    await rm(join(root, MANIFEST_FILENAME))
    const page = `<!doctype html><title>new</title><p>${'the new page '.repeat(300)}</p>`
    await writeFile(join(root, 'index.html'), page)
    const served = await serve(root)
    try {
      for (const coding of ['br', 'gzip', 'zstd', 'gzip, deflate, br, zstd']) {
        const res = await get(served.port, '/', { 'accept-encoding': coding })
        expect(res.status, coding).toBe(200)
        expect(res.headers['content-encoding'], coding).toBeUndefined()
        expect(res.body.toString(), coding).toBe(page)
      }
      // A file left as it was keeps its variants.
      expect((await get(served.port, '/data.json', { 'accept-encoding': 'br' })).headers['content-encoding']).toBe('br')
    } finally {
      served.server.close()
    }
  })
})

describe("a user's own folder named like our delta folders (issue 29, item 6)", () => {
  // Shaped like deltas of `my` and `notes.txt` (`<original>.dict/<base64>[.ext].dcb|dcz`),
  // which the site does not have: the user's files, not delta storage.
  const USER_FILES = { 'my.dict/QUJDRA=.dcb': 'a user file\n', 'notes.txt.dict/QUJDRA=.txt.dcz': 'another one\n' }
  const url = (path: string): string => `/${path.split('/').map(encodeURIComponent).join('/')}`

  it('holds files, served as they are: deltas are what the manifest lists, not what a name looks like', async () => {
    await writeAll(site.root, USER_FILES)
    for (const [path, text] of Object.entries(USER_FILES)) {
      const res = await get(site.port, url(path), { 'accept-encoding': 'gzip, br, dcb, dcz' })
      expect(res.status, path).toBe(200)
      expect(res.body.toString(), path).toBe(text)
      expect(res.headers['content-encoding'], path).toBeUndefined()
    }
  })

  it('without a manifest too, while a delta beside its original is still not a file of its own', async () => {
    const root = join(dir.path, 'user-dict')
    await writeAll(root, { ...USER_FILES, 'app.js': 'export const app = 1\n', 'app.js.dict/QUJDRA=.js.dcb': 'delta' })
    const served = await serve(root)
    try {
      for (const [path, text] of Object.entries(USER_FILES))
        expect((await get(served.port, url(path))).body.toString(), path).toBe(text)
      expect((await get(served.port, url('app.js.dict/QUJDRA=.js.dcb'))).status).toBe(418)
    } finally {
      served.server.close()
    }
  })
})

describe('a folder without a manifest, built with keepOriginals: false', () => {
  it('decodes the .gz beside a missing original for a client that takes no coding', async () => {
    const root = join(dir.path, 'nokeep')
    await writeAll(root, fixtureFiles())
    const manifest = await compressFixture(root, { keepOriginals: false })
    await rm(join(root, MANIFEST_FILENAME))
    const served = await serve(root)
    try {
      const data = manifest.files.find((f) => f.path === 'data.json')!
      expect(data.originalOnDisk).toBe(false)
      const plain = await get(served.port, '/data.json')
      expect(plain.status).toBe(200)
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(createHash('sha256').update(plain.body).digest('hex')).toBe(data.sha256)
      const br = await get(served.port, '/data.json', { 'accept-encoding': 'br' })
      expect(br.headers['content-encoding']).toBe('br')
      expect(br.body.equals(await readFile(join(root, 'data.json.br')))).toBe(true)
    } finally {
      served.server.close()
    }
  })
})
