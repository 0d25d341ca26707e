// gzip 'max' (issue 28): libdeflate's near-optimal parse beside zlib 9, the smallest stream kept,
// through the cache. The output is plain gzip: zlib and the gzip CLI decode it.
import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { compress, encodeBuffer, readManifest, resolveCompressOptions } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encoderParams, encoderSettings } from '../../src/codecs/encode.js'
import { GZIP_MAX_LEVEL, LIBDEFLATE_ENGINE } from '../../src/codecs/gzip.js'
import { decodeWithCli, makeSite, textOf } from '../fixtures.js'

const zlib9 = (data: Buffer): number =>
  Math.min(gzipSync(data, { level: 9, memLevel: 8 }).length, gzipSync(data, { level: 9, memLevel: 9 }).length)

describe("gzip 'max'", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  let cacheDir: Awaited<ReturnType<typeof tempDir>>
  beforeEach(async () => {
    dir = await tempDir('gzip-max')
    cacheDir = await tempDir('gzip-max-cache')
  })
  afterEach(async () => {
    await dir.remove()
    await cacheDir.remove()
  })

  it('is standard gzip, smaller than zlib 9 with either memLevel, decoded by zlib and gunzip', async () => {
    for (const [name, data] of [
      ['code', textOf(200_000, 3)],
      ['markup', Buffer.from(`<ul>${textOf(60_000, 4).toString().replaceAll('\n', '</li>\n<li>')}</ul>`)],
    ] as const) {
      const encoded = await encodeBuffer('gzip', data, GZIP_MAX_LEVEL)
      expect(encoded.length, name).toBeLessThan(zlib9(data))
      expect(gunzipSync(encoded).equals(data), name).toBe(true)
      const file = join(dir.path, `${name}.gz`)
      await writeFile(file, encoded)
      expect(decodeWithCli('gzip', file).equals(data), name).toBe(true)
    }
  })

  it("is what `levels: { gzip: 'max' }` selects, keyed apart from level 9 and recorded as 'max'", async () => {
    expect(resolveCompressOptions({ levels: { gzip: 'max' } }).levels.gzip).toBe(GZIP_MAX_LEVEL)
    expect(resolveCompressOptions({ levels: { brotli: 'max', zstd: 'max' } }).levels).toMatchObject({
      brotli: 11,
      zstd: 22,
    })
    // The number behind 'max' is not a level users can write.
    expect(() => resolveCompressOptions({ levels: { gzip: GZIP_MAX_LEVEL } })).toThrow(
      /accepts a whole number from 1 to 9, or 'max'/,
    )
    const settings = (level: number): string => encoderSettings('gzip', encoderParams('gzip', { size: 5_000 }, level))
    expect(settings(GZIP_MAX_LEVEL)).not.toBe(settings(9))
    expect(settings(GZIP_MAX_LEVEL)).toContain(LIBDEFLATE_ENGINE)

    await makeSite(dir.path)
    const options = {
      cache: cacheDir.path,
      concurrency: 2,
      formats: ['gzip' as const],
      levels: { gzip: 'max' as const },
    }
    const first = await compress(dir.path, options)
    expect(first.report.cache.misses).toBeGreaterThan(0)
    const manifest = await readManifest(dir.path)
    expect(manifest.settings?.levels.gzip).toBe('max')
    for (const file of manifest.files) {
      const original = await readFile(join(dir.path, file.path))
      for (const variant of file.variants) {
        const bytes = await readFile(join(dir.path, variant.path))
        expect(gunzipSync(bytes).equals(original), variant.path).toBe(true)
        expect(bytes.length, variant.path).toBeLessThanOrEqual(zlib9(original))
      }
    }
    // Paid once per content: a rerun encodes nothing.
    const second = await compress(dir.path, options)
    expect(second.report.cache.misses).toBe(0)
  })

  it('names the libdeflate version that is installed (the cache key carries it)', async () => {
    const entry = createRequire(import.meta.url).resolve('libdeflate')
    const { version } = JSON.parse(await readFile(join(dirname(entry), 'package.json'), 'utf8')) as { version: string }
    expect(LIBDEFLATE_ENGINE).toBe(`libdeflate@${version}`)
  })
})
