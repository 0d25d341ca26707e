// The Cloudflare Worker's deltas (RFC 9842) in Node: a site built twice with the delta step, the
// runtime answering requests with and without a dictionary the visitor holds.
import { createHash } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  compress as compressDirectory,
  decodeWithDictionary,
  type Manifest,
  resolveDeltaOptions,
  writeDeltas,
} from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorker, type PreencodeWorker } from '../../src/cloudflare/runtime.js'
import { workerSiteData } from '../../src/cloudflare/site-data.js'
import { assetsOf, edgeRequest } from './helpers.ts'

describe('createWorker: deltas (RFC 9842)', () => {
  const CHROMIUM_AE = 'gzip, deflate, br, zstd, dcb, dcz'
  const V1 = Buffer.from(
    Array.from({ length: 3000 }, (_, i) => `export function f${i}(x) { return x * ${i % 17} }\n`).join(''),
  )
  const V2 = Buffer.concat([V1.subarray(0, 40_000), Buffer.from('export const edited = 2\n'), V1.subarray(40_000)])
  const id = (data: Buffer): string => `:${createHash('sha256').update(data).digest('base64')}:`
  let site: Awaited<ReturnType<typeof tempDir>>
  let cache: Awaited<ReturnType<typeof tempDir>>
  let built: Manifest
  let deltaWorker: PreencodeWorker

  async function build(name: string, bytes: Buffer): Promise<Manifest> {
    await rm(join(site.path, 'assets'), { recursive: true, force: true })
    await mkdir(join(site.path, 'assets'), { recursive: true })
    await writeFile(join(site.path, 'index.html'), `<script type="module" src="/assets/${name}"></script>`.padEnd(3000))
    await writeFile(join(site.path, 'assets', name), bytes)
    const compressed = await compressDirectory(site.path, { cache: cache.path })
    return (await writeDeltas(site.path, compressed.manifest, resolveDeltaOptions(), { cacheDir: cache.path })).manifest
  }

  beforeAll(async () => {
    site = await tempDir('cf-deltas-site')
    cache = await tempDir('cf-deltas-cache')
    await build('app-Ab12Cd34.js', V1)
    built = await build('app-Ef56Gh78.js', V2)
    deltaWorker = createWorker(workerSiteData(built, { index: 'index.html', hidden: [] }))
  })
  afterAll(async () => {
    await site.remove()
    await cache.remove()
  })

  it('sends the smallest accepted delta, which decodes to version 2, with its own Vary and ETag', async () => {
    const app = built.files.find((f) => f.path === 'assets/app-Ef56Gh78.js')!
    const smallest = [...app.deltas!].sort((a, b) => a.size - b.size)[0]!
    const url = `http://site.test/${app.path}`
    const res = await deltaWorker.fetch(
      edgeRequest(url, CHROMIUM_AE, { 'available-dictionary': id(V1) }),
      assetsOf(site.path),
    )
    const body = Buffer.from(await res.arrayBuffer())
    expect(res.headers.get('content-encoding')).toBe(smallest.encoding)
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Available-Dictionary')
    expect(res.headers.get('use-as-dictionary')).toBe('match="app-*.js"')
    expect((await decodeWithDictionary(smallest.encoding, body, V1)).equals(V2)).toBe(true)
    const plain = await deltaWorker.fetch(edgeRequest(url, CHROMIUM_AE), assetsOf(site.path))
    expect(plain.headers.get('content-encoding')).toBe('zstd')
    expect(plain.headers.get('etag')).not.toBe(res.headers.get('etag'))
    for (const hostile of [id(Buffer.from('foreign')), ':../../etc/passwd=:', `${id(V1)}, ${id(V1)}`]) {
      const other = await deltaWorker.fetch(
        edgeRequest(url, CHROMIUM_AE, { 'available-dictionary': hostile }),
        assetsOf(site.path),
      )
      expect(other.headers.get('etag'), hostile).toBe(plain.headers.get('etag'))
      expect(other.headers.get('vary')).toBe('Accept-Encoding')
    }
    // Without dcb/dcz in the visitor's header: no delta, whatever the dictionary.
    const noDcb = await deltaWorker.fetch(
      edgeRequest(url, 'gzip, deflate, br, zstd', { 'available-dictionary': id(V1) }),
      assetsOf(site.path),
    )
    expect(noDcb.headers.get('content-encoding')).toBe('zstd')
  })
})
