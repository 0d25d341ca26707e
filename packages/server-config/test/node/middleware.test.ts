// The Node middleware over real HTTP on loopback, with a fixture site of real variants.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import type { Manifest, ManifestFile } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRange } from '../../src/http/range.js'
import { buildFixtureSite } from '../fixture.ts'
import { get, serve } from './helpers.ts'

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex')

let dir: { path: string; remove: () => Promise<void> }
let keep: { server: Server; port: number; manifest: Manifest; root: string }
let nokeep: { server: Server; port: number; manifest: Manifest }

beforeAll(async () => {
  dir = await tempDir('middleware')
  const root = join(dir.path, 'keep')
  const manifest = await buildFixtureSite(root)
  keep = { ...(await serve(root)), manifest, root } // manifest read from disk
  const nokeepManifest = await buildFixtureSite(join(dir.path, 'nokeep'), { keepOriginals: false })
  nokeep = { ...(await serve(join(dir.path, 'nokeep'), nokeepManifest)), manifest: nokeepManifest }
})
afterAll(async () => {
  keep.server.close()
  nokeep.server.close()
  await dir.remove()
})

const file = (path: string): ManifestFile => keep.manifest.files.find((f) => f.path === path)!

describe('createPreencodeMiddleware', () => {
  it('negotiates per RFC 9110 and sends one Vary, the type, the length and the cache class', async () => {
    const js = file('assets/main-Ab3dEf9h.js')
    const cases: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, zstd', 'zstd'],
      ['x-gzip', 'gzip'],
      ['brotli', undefined],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      ['*', 'br'],
      ['*;q=0, GZIP', 'gzip'],
    ]
    for (const [accept, expected] of cases) {
      const res = await get(
        keep.port,
        '/assets/main-Ab3dEf9h.js',
        accept === undefined ? {} : { 'accept-encoding': accept },
      )
      expect(res.status).toBe(200)
      expect(res.headers['content-encoding'], String(accept)).toBe(expected)
      expect(res.headers.vary).toBe('Accept-Encoding')
      expect(res.headers['content-type']).toBe(js.contentType)
      expect(res.headers['content-length']).toBe(String(res.body.length))
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    }
    const br = await get(keep.port, '/assets/main-Ab3dEf9h.js', { 'accept-encoding': 'br' })
    expect(sha(brotliDecompressSync(br.body))).toBe(js.sha256)
  })

  it('ETags per representation; If-None-Match, If-Modified-Since, If-Match', async () => {
    const url = '/data.json'
    const tags = await Promise.all(
      ['identity', 'gzip', 'br', 'zstd'].map(
        async (a) => (await get(keep.port, url, { 'accept-encoding': a })).headers.etag,
      ),
    )
    expect(new Set(tags).size).toBe(4)
    const brTag = tags[2] as string
    const hit = await get(keep.port, url, { 'accept-encoding': 'br', 'if-none-match': `"other", W/${brTag}` })
    expect(hit.status).toBe(304)
    expect(hit.headers.vary).toBe('Accept-Encoding')
    expect((await get(keep.port, url, { 'accept-encoding': 'gzip', 'if-none-match': brTag })).status).toBe(200)
    const lastModified = (await get(keep.port, url)).headers['last-modified'] as string
    expect((await get(keep.port, url, { 'if-modified-since': lastModified })).status).toBe(304)
    expect((await get(keep.port, url, { 'if-match': '"nope"' })).status).toBe(412)
  })

  it('Range, If-Range and 416 on the chosen representation; HEAD equals GET', async () => {
    const data = file('data.json')
    const br = await readFile(join(keep.root, 'data.json.br'))
    const part = await get(keep.port, '/data.json', { 'accept-encoding': 'br', range: 'bytes=10-19' })
    expect(part.status).toBe(206)
    expect(part.headers['content-range']).toBe(`bytes 10-19/${br.length}`)
    expect(part.body.equals(br.subarray(10, 20))).toBe(true)
    const gzipTag = (await get(keep.port, '/data.json', { 'accept-encoding': 'gzip' })).headers.etag as string
    const stale = await get(keep.port, '/data.json', {
      'accept-encoding': 'br',
      range: 'bytes=0-9',
      'if-range': gzipTag,
    })
    expect(stale.status).toBe(200)
    expect(stale.body.equals(br)).toBe(true)
    const out = await get(keep.port, '/data.json', { range: `bytes=${data.size}-` })
    expect(out.status).toBe(416)
    expect(out.headers['content-range']).toBe(`bytes */${data.size}`)
    const head = await get(keep.port, '/data.json', { 'accept-encoding': 'br' }, 'HEAD')
    const full = await get(keep.port, '/data.json', { 'accept-encoding': 'br' })
    expect(head.body.length).toBe(0)
    for (const name of ['content-length', 'content-encoding', 'etag', 'vary', 'content-type'])
      expect(head.headers[name]).toBe(full.headers[name])
  })

  it('directory index with query strings, the manifest hidden, unknown paths and other methods passed on', async () => {
    const index = await get(keep.port, '/about/?a=1', { 'accept-encoding': 'br' })
    expect(index.status).toBe(200)
    expect(index.headers['content-encoding']).toBe('br')
    expect(index.headers['cache-control']).toBe('no-cache')
    expect((await get(keep.port, '/.preencode-manifest.json')).status).toBe(404)
    expect((await get(keep.port, '/missing.js')).status).toBe(418)
    expect((await get(keep.port, '/data.json', {}, 'POST')).status).toBe(418)
    expect((await get(keep.port, '/%E0%A4%A')).status).toBe(418)
    expect((await get(keep.port, '//data.json')).status).toBe(418) // a path, not a host
    expect((await get(keep.port, '/about/../data.json')).status).toBe(418) // only exact manifest paths
    const tar = await get(keep.port, '/download.tar.gz', { 'accept-encoding': 'gzip' })
    expect(tar.headers['content-type']).toBe('application/gzip')
    expect(tar.headers['content-encoding']).toBeUndefined()
  })

  it('keepOriginals: false decodes the gzip variant for clients without an acceptable coding', async () => {
    const data = nokeep.manifest.files.find((f) => f.path === 'data.json')!
    expect(data.originalOnDisk).toBe(false)
    const res = await get(nokeep.port, '/data.json')
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.headers['content-length']).toBe(String(data.size))
    expect(sha(res.body)).toBe(data.sha256)
    expect((await get(nokeep.port, '/data.json', { 'accept-encoding': 'br' })).headers['content-encoding']).toBe('br')
  })
})

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=50-1000', 100, { start: 50, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-1,5-6', 100, undefined],
    ['items=0-1', 100, undefined],
    ['bytes=9-1', 100, undefined],
  ] as const)('%s of %d', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected)
  })
})
