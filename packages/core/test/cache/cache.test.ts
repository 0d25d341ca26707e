import { mkdir, readdir, readFile, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cacheKey, openCache } from '../../src/cache/cache.js'
import { ENGINE_VERSION } from '../../src/codecs/encode.js'

const key = (n: number): string =>
  cacheKey({ contentSha256: String(n).padStart(64, '0'), format: 'brotli', settings: 'brotli:q11' })
const entryPath = (dir: string, k: string): string => join(dir, 'v1', k.slice(0, 2), k)

describe('the persistent cache', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeEach(async () => {
    dir = await tempDir('cache')
  })
  afterEach(async () => {
    await dir.remove()
  })

  it('returns what was stored, and misses what was not', async () => {
    const cache = openCache(dir.path, 1 << 20)
    await cache.set(key(1), Buffer.from('compressed bytes'))
    expect((await cache.get(key(1)))?.toString()).toBe('compressed bytes')
    expect(await cache.get(key(2))).toBeUndefined()
    // Only complete entries under their final names: no temp files left behind.
    const shard = await readdir(join(dir.path, 'v1', key(1).slice(0, 2)))
    expect(shard).toEqual([key(1)])
  })

  it('keys on content, format, settings and the engine (library versions included)', () => {
    const base = { contentSha256: 'a'.repeat(64), format: 'zstd', settings: 'zstd:l19:w17:pledged' }
    const keys = new Set([
      cacheKey(base),
      cacheKey({ ...base, contentSha256: 'b'.repeat(64) }),
      cacheKey({ ...base, format: 'gzip' }),
      cacheKey({ ...base, settings: 'zstd:l22:w17:pledged' }),
      cacheKey({ ...base, engine: `${ENGINE_VERSION} other-zstd` }),
    ])
    expect(keys.size).toBe(5)
    expect(ENGINE_VERSION).toContain(`zstd/${process.versions.zstd}`)
    expect(ENGINE_VERSION).toContain(`brotli/${process.versions.brotli}`)
    expect(ENGINE_VERSION).toContain(`zlib/${process.versions.zlib}`)
  })

  it('treats truncated, altered or unreadable entries as misses, never as errors', async () => {
    const cache = openCache(dir.path, 1 << 20)
    for (const n of [1, 2, 3, 4]) await cache.set(key(n), Buffer.from(`payload ${n} `.repeat(20)))
    await truncate(entryPath(dir.path, key(1)), 50)
    const altered = await readFile(entryPath(dir.path, key(2)))
    altered[altered.length - 1]! ^= 0xff
    await writeFile(entryPath(dir.path, key(2)), altered)
    await writeFile(entryPath(dir.path, key(3)), '')
    // An entry path that is a directory: reading it fails with EISDIR.
    await rm(entryPath(dir.path, key(4)))
    await mkdir(entryPath(dir.path, key(4)))
    for (const n of [1, 2, 3, 4]) expect(await cache.get(key(n))).toBeUndefined()
    // A miss is repaired by the next set.
    await cache.set(key(1), Buffer.from('fresh'))
    expect((await cache.get(key(1)))?.toString()).toBe('fresh')
  })

  it('refuses an entry moved under another key (swapped files, a cache from another branch)', async () => {
    const cache = openCache(dir.path, 1 << 20)
    await cache.set(key(1), Buffer.from('bytes of page one'))
    await cache.set(key(2), Buffer.from('bytes of page two'))
    const one = await readFile(entryPath(dir.path, key(1)))
    await writeFile(entryPath(dir.path, key(1)), await readFile(entryPath(dir.path, key(2))))
    await writeFile(entryPath(dir.path, key(2)), one)
    expect(await cache.get(key(1))).toBeUndefined()
    expect(await cache.get(key(2))).toBeUndefined()
  })

  it('refuses, and removes, an intact entry that `verify` rejects (crafted for its key)', async () => {
    const cache = openCache(dir.path, 1 << 20)
    await cache.set(key(1), Buffer.from('<script>alert(1)</script>'))
    const seen: string[] = []
    const hit = await cache.get(key(1), async (payload) => {
      seen.push(payload.toString())
      return false
    })
    expect(hit).toBeUndefined()
    expect(seen).toEqual(['<script>alert(1)</script>'])
    await expect(readFile(entryPath(dir.path, key(1)))).rejects.toThrow(/ENOENT/)
    // A verifier that throws is a refusal too, not an error.
    await cache.set(key(2), Buffer.from('x'))
    expect(
      await cache.get(key(2), async () => {
        throw new Error('not a brotli stream')
      }),
    ).toBeUndefined()
  })

  it('prunes least recently used entries to the size bound, and a hit makes an entry young', async () => {
    const payload = Buffer.alloc(1000, 1)
    const cache = openCache(dir.path, 2500)
    for (const n of [1, 2, 3, 4]) {
      await cache.set(key(n), payload)
      // Spread the mtimes out over hours (the LRU clock's resolution): 1 oldest, 4 newest.
      const when = new Date(Date.now() - (10 - n) * 3_600_000)
      await utimes(entryPath(dir.path, key(n)), when, when)
    }
    expect(await cache.get(key(1))).toBeDefined()
    const result = await cache.prune()
    expect(result.removedEntries).toBe(2)
    expect(result.keptBytes).toBeLessThanOrEqual(2500)
    expect(await cache.get(key(1))).toBeDefined()
    expect(await cache.get(key(2))).toBeUndefined()
    expect(await cache.get(key(3))).toBeUndefined()
    expect(await cache.get(key(4))).toBeDefined()
  })

  it('a hit leaves the mtime of an entry touched within the hour alone (no inode write per warm rebuild)', async () => {
    const cache = openCache(dir.path, 1 << 20)
    await cache.set(key(1), Buffer.from('young'))
    const when = new Date(Date.now() - 10 * 60_000)
    await utimes(entryPath(dir.path, key(1)), when, when)
    expect((await cache.get(key(1)))?.toString()).toBe('young')
    expect((await stat(entryPath(dir.path, key(1)))).mtimeMs).toBe(when.getTime())
  })

  it('does nothing when disabled', async () => {
    const cache = openCache(false, 0)
    await cache.set(key(1), Buffer.from('x'))
    expect(await cache.get(key(1))).toBeUndefined()
    expect(await cache.prune()).toEqual({ removedEntries: 0, removedBytes: 0, keptBytes: 0 })
  })

  it('survives a cache directory it cannot create (a file in the way)', async () => {
    const blocked = join(dir.path, 'blocked')
    await writeFile(blocked, 'not a directory')
    const cache = openCache(blocked, 1 << 20)
    await expect(cache.set(key(1), Buffer.from('x'))).resolves.toBeUndefined()
    expect(await cache.get(key(1))).toBeUndefined()
  })
})
