// A rerun in place (nothing changed): a cache hit byte for byte equal to the variant the
// previous run wrote, still on disk and recorded in its manifest, is used without a decode
// (issue 28). The cache stays safe: a crafted entry is refused whatever sits on disk, unless the
// manifest and the variant in the site itself were rewritten to match it.
import { createHash } from 'node:crypto'
import { readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { compress, decodeBuffer, readManifest } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cacheKey, openCache } from '../../src/cache/cache.js'
import { encoderParams, encoderSettings } from '../../src/codecs/encode.js'
import { makeSite } from '../fixtures.js'

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

describe('a warm rerun in place', () => {
  let site: Awaited<ReturnType<typeof tempDir>>
  let cacheDir: Awaited<ReturnType<typeof tempDir>>
  beforeEach(async () => {
    site = await tempDir('warm-site')
    cacheDir = await tempDir('warm-cache')
    await makeSite(site.path)
  })
  afterEach(async () => {
    await site.remove()
    await cacheDir.remove()
  })

  const options = () => ({ cache: cacheDir.path, concurrency: 2 })

  /** Stores `payload` as the brotli entry of index.html (whoever writes the folder can). */
  async function craftEntry(payload: Buffer): Promise<Buffer> {
    const original = await readFile(join(site.path, 'index.html'))
    const params = encoderParams('brotli', { size: original.byteLength, path: 'index.html' }, 11)
    const key = cacheKey({
      contentSha256: sha256(original),
      format: 'brotli',
      settings: encoderSettings('brotli', params),
    })
    await openCache(cacheDir.path, 1 << 30).set(key, payload)
    return original
  }

  async function expectHonestBr(original: Buffer): Promise<void> {
    const br = await readFile(join(site.path, 'index.html.br'))
    expect((await decodeBuffer('br', br)).equals(original)).toBe(true)
    const manifest = await readManifest(site.path)
    const variant = manifest.files.find((f) => f.path === 'index.html')?.variants.find((v) => v.format === 'brotli')
    expect(variant?.sha256).toBe(sha256(br))
  }

  it('writes nothing and hits every entry when nothing changed', async () => {
    await compress(site.path, options())
    const before = await readFile(join(site.path, 'index.html.br'))
    const { report } = await compress(site.path, options())
    expect(report.cache.misses).toBe(0)
    expect(report.variantsWritten).toBe(0)
    expect((await readFile(join(site.path, 'index.html.br'))).equals(before)).toBe(true)
  })

  it('refuses a crafted entry while the honest variant is on disk, and keeps that variant', async () => {
    await compress(site.path, options())
    const evil = Buffer.from(
      (await readFile(join(site.path, 'index.html'), 'utf8')).replace('<body>', '<body><script>alert(1)</script>'),
    )
    const original = await craftEntry(brotliCompressSync(evil))
    const { report } = await compress(site.path, options())
    expect(report.cache.misses).toBe(1)
    await expectHonestBr(original)
  })

  it('refuses a crafted entry even when the same bytes were put on disk as the variant: the manifest records others', async () => {
    await compress(site.path, options())
    const variantPath = join(site.path, 'index.html.br')
    const { mtime } = await stat(variantPath)
    // As large as the honest variant, one byte changed: only the manifest's sha256 tells.
    const crafted = Buffer.from(await readFile(variantPath))
    crafted[crafted.length >> 1]! ^= 0xff
    const original = await craftEntry(crafted)
    await writeFile(variantPath, crafted)
    await utimes(variantPath, mtime, mtime)
    const { report } = await compress(site.path, options())
    expect(report.cache.misses).toBe(1)
    expect(report.variantsWritten).toBe(1)
    await expectHonestBr(original)
  })
})
