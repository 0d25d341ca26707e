// reconcileManifest: how a manifest is compared with the disk, and that a recompression keeps
// the settings of the run that wrote it. (The user-level cases are CLI tests in packages/cli.)
import { readFile, rm, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { manifestDrift, reconcileManifest } from '../../src/pipeline/reconcile.js'
import { compress as compressDirectory } from '../../src/run/compress.js'
import { put, textOf } from '../fixtures.js'

describe('reconcileManifest', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  let site: string
  beforeEach(async () => {
    dir = await tempDir('reconcile')
    site = join(dir.path, 'site')
    await put(site, 'index.html', textOf(6000, 1))
    await put(site, 'assets/app-Ab3dEf9h.js', textOf(9000, 2))
  })
  afterEach(async () => {
    await dir.remove()
  })

  it('an up-to-date site, or one only touched (mtime moved, same bytes), is left as it is', async () => {
    const options = { cache: join(dir.path, 'cache'), levels: { brotli: 4 } }
    const { manifest } = await compressDirectory(site, options)
    const quiet = await reconcileManifest(site)
    expect(quiet.recompressed).toBe(false)
    expect(quiet.manifest).toEqual(manifest)
    const later = new Date(Date.now() + 60_000)
    await utimes(join(site, 'index.html'), later, later)
    const touched = await reconcileManifest(site)
    expect(touched.drift).toEqual({ changed: [], added: [], removed: [], damaged: [], leftovers: [], tempFiles: [] })
    expect(touched.recompressed).toBe(false)
  })

  it('a same-size edit is found by its hash; a deleted variant by its absence; both are repaired', async () => {
    await compressDirectory(site, { cache: join(dir.path, 'cache'), levels: { brotli: 4 } })
    const edited = Buffer.from(await readFile(join(site, 'index.html')))
    edited[100] = edited[100] === 0x61 ? 0x62 : 0x61 // same size, other bytes
    await put(site, 'index.html', edited)
    await rm(join(site, 'assets/app-Ab3dEf9h.js.zst'))
    const result = await reconcileManifest(site)
    expect(result.drift.changed).toEqual(['index.html'])
    expect(result.drift.damaged).toEqual(['assets/app-Ab3dEf9h.js'])
    expect(result.recompressed).toBe(true)
    expect(brotliDecompressSync(await readFile(join(site, 'index.html.br'))).equals(edited)).toBe(true)
    expect(await manifestDrift(site, result.manifest)).toEqual({
      changed: [],
      added: [],
      removed: [],
      damaged: [],
      leftovers: [],
      tempFiles: [],
    })
  })

  it('recompresses with the settings the manifest records: levels, formats, cache policy', async () => {
    const { manifest } = await compressDirectory(site, {
      cache: false,
      formats: ['brotli', 'gzip'],
      levels: { brotli: 4, gzip: 5 },
      cachePolicy: { immutable: /^assets\//, htmlCacheControl: 'max-age=60' },
    })
    expect(manifest.settings?.immutable).toBe('/^assets\\//')
    await put(site, 'late/page.html', textOf(5000, 3))
    await put(site, 'assets/extra.js', textOf(5000, 4))
    const result = await reconcileManifest(site)
    expect(result.drift.added).toEqual(['assets/extra.js', 'late/page.html'])
    const late = result.manifest.files.find((f) => f.path === 'late/page.html')!
    expect(late.cacheControl).toBe('max-age=60')
    expect(late.variants.map((v) => v.format).sort()).toEqual(['brotli', 'gzip'])
    expect(result.manifest.files.find((f) => f.path === 'assets/extra.js')!.cacheClass).toBe('immutable')
    expect(result.manifest.settings).toEqual(manifest.settings)
  })
})
