import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '@preencode/test-utils'
import { MANIFEST_FILENAME, MANIFEST_VERSION, scanDirectory, type Manifest } from '@preencode/core'
import { put } from './fixtures.js'

describe('scanDirectory', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeEach(async () => { dir = await tempDir('scan') })
  afterEach(async () => { await dir.remove() })

  it('sorts files into originals, sidecars and temp leftovers', async () => {
    for (const path of ['index.html', 'index.html.br', 'index.html.gz', 'assets/app.js', 'assets/app.js.zst', '.hidden/x.txt',
      'download.tar.gz', 'pic.png', 'pic.png.gz', 'assets/.app.js.br.tmp-123-abcdef01', `.${MANIFEST_FILENAME}.tmp-9-0a1b2c3d`, MANIFEST_FILENAME]) {
      await put(dir.path, path, 'x')
    }
    const scan = await scanDirectory(dir.path)
    // A real download.tar.gz has no download.tar beside it: an original. pic.png.gz sits beside
    // an original preencode never compresses, so it is the user's own file too.
    expect(scan.originals).toEqual(['.hidden/x.txt', 'assets/app.js', 'download.tar.gz', 'index.html', 'pic.png', 'pic.png.gz'])
    expect(scan.variants).toEqual(['assets/app.js.zst', 'index.html.br', 'index.html.gz'])
    expect(scan.tempFiles).toEqual([`.${MANIFEST_FILENAME}.tmp-9-0a1b2c3d`, 'assets/.app.js.br.tmp-123-abcdef01'])
  })

  it('counts a sidecar whose original is gone as a variant when the previous manifest recorded it', async () => {
    await put(dir.path, 'gone.js.br', 'x')
    await put(dir.path, 'other.js.gz', 'x')
    const previous: Manifest = {
      version: MANIFEST_VERSION,
      generator: 'test',
      formats: ['brotli'],
      files: [{
        path: 'gone.js', size: 2000, sha256: '0'.repeat(64), mtimeMs: 0, contentType: 'text/javascript', cacheClass: 'default',
        cacheControl: 'x', originalOnDisk: true,
        variants: [{ format: 'brotli', encoding: 'br', path: 'gone.js.br', size: 10, sha256: '0'.repeat(64) }],
      }],
    }
    const scan = await scanDirectory(dir.path, { previous })
    expect(scan.variants).toEqual(['gone.js.br'])
    expect(scan.originals).toEqual(['other.js.gz'])
  })

  it('reports include and exclude matches and skips the cache directory inside the site', async () => {
    for (const path of ['a.custom', 'b.js', 'vendor/c.js', 'node_modules/.cache/preencode/v1/aa/bb']) await put(dir.path, path, 'x')
    const scan = await scanDirectory(dir.path, {
      include: ['*.custom', /^vendor\//],
      exclude: ['vendor/**'],
      skipDirs: [`${dir.path}/node_modules/.cache/preencode`],
    })
    expect([...scan.included].sort()).toEqual(['a.custom', 'vendor/c.js'])
    // Excluded: matched by `exclude` (which wins), or outside a given `include`.
    expect([...scan.excluded].sort()).toEqual(['b.js', 'vendor/c.js'])
    expect(scan.originals).toEqual(['a.custom', 'b.js', 'vendor/c.js'])
  })
})
