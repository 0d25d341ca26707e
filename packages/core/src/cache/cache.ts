import { randomBytes } from 'node:crypto'
import { mkdir, open, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ENGINE_VERSION } from '../codecs/encode.js'
import { createDebug } from '../debug.js'
import { withOpenFiles } from '../fs/open-files.js'
import { sha256Hex } from '../hash.js'
import { frameEntry, unframeEntry } from './entry-frame.js'

/**
 * A persistent, content-addressed store of compressed bytes. Brotli 11 runs near 0.8 MB/s, so a
 * rebuild that finds its bytes here instead of recompressing is the largest saving users get.
 *
 * Layout: `<dir>/v1/<2 hex>/<64 hex>`; each entry is `MAGIC | sha256(key | payload) | payload` (`entry-frame.ts`):
 * a truncated or corrupted entry, and an entry moved under another key (swapped files, a CI
 * cache restored from another branch), fail that check and are a miss, never an error. The
 * check cannot stop an entry crafted for its key (anyone who can write the folder can compute
 * the digest), so a hit is also decoded and compared with the original (`verify`) before use.
 */
export interface CompressionCache {
  /** Absolute directory, or false when caching is off (every `get` misses, `set` is a no-op). */
  readonly dir: string | false
  /**
   * The stored bytes, or undefined on a miss. `verify` checks an entry before it is used (it
   * decodes to the original): false makes it a miss, and the entry is removed. Every caller that
   * writes what it gets into a site passes it; local and shared entries alike.
   */
  get(key: string, verify?: VerifyEntry): Promise<Buffer | undefined>
  set(key: string, payload: Uint8Array): Promise<void>
  /** Ends what the cache holds open (a shared cache's connections). @default nothing to end */
  close?(): void
  /** Deletes least recently used entries until the cache holds at most `maxBytes`. */
  prune(): Promise<{ removedEntries: number; removedBytes: number; keptBytes: number }>
}

/** Resolves true when `payload` is what the key promises (it decodes to the original). */
export type VerifyEntry = (payload: Buffer) => Promise<boolean>

export interface CacheKeyParts {
  /** sha256 of the original's bytes, hex. */
  contentSha256: string
  format: string
  /** The encoder settings string (level, window, mode...) from `encoderSettings`. */
  settings: string
  /**
   * The engine's version, library versions included.
   * @default ENGINE_VERSION
   */
  engine?: string
}

const LAYOUT = 'v1'
// PEC1 entries (a checksum of the payload only) are not bound to their key: read as a miss.
const MAGIC = Buffer.from('PEC2')
const ENTRY_NAME = /^[0-9a-f]{64}$/
/**
 * The LRU clock's resolution: a hit makes an entry young again (its mtime), but an entry touched
 * within the last hour is left alone. A rebuild loop (watch mode, a warm rerun) then reads its
 * entries without writing an inode each; pruning by size does not need finer order.
 */
const TOUCH_AFTER_MS = 60 * 60 * 1000
const debug = createDebug('preencode:cache')

export interface CacheHooks {
  /**
   * Called when an entry cannot be stored (read-only or full disk, a file in the way). The run
   * goes on without it; the caller decides whether to tell the user.
   * @default ignore
   */
  onWriteError?: (error: unknown) => void
}

/**
 * The one warning about a cache that cannot be written, whichever step met it first; the CLI
 * shows it once per run (its text up to ` (` is the same for every cause).
 */
export function cacheWriteWarning(dir: string, error: unknown): string {
  return `cannot write to the cache at ${dir} (${(error as Error)?.message ?? String(error)}); this run goes on, the next one will compress again`
}

/**
 * `logger` with the cache-write warning shown once however many steps of a run meet it (the
 * compression, each recompression, the delta step's build history).
 */
export function onceCacheWarning<L extends { warn(message: string): void }>(logger: L): L {
  let warned = false
  return {
    ...logger,
    warn: (message: string) => {
      if (message.startsWith('cannot write to the cache at ')) {
        if (warned) return
        warned = true
      }
      logger.warn(message)
    },
  }
}

/** The key: sha256 over everything the compressed bytes depend on. */
export function cacheKey(parts: CacheKeyParts): string {
  return sha256Hex(JSON.stringify([parts.engine ?? ENGINE_VERSION, parts.format, parts.settings, parts.contentSha256]))
}

export function openCache(dir: string | false, maxBytes: number, hooks: CacheHooks = {}): CompressionCache {
  if (dir === false) {
    return {
      dir: false,
      get: async () => undefined,
      set: async () => {},
      prune: async () => ({ removedEntries: 0, removedBytes: 0, keptBytes: 0 }),
    }
  }
  return new LocalCache(dir, maxBytes, hooks)
}

/** An entry file of the cache, as `prune` finds it. */
interface EntryFile {
  path: string
  size: number
  mtimeMs: number
}

/** The cache in a local folder: `<dir>/v1/<2 hex>/<64 hex>`. */
class LocalCache implements CompressionCache {
  private readonly root: string

  constructor(
    readonly dir: string,
    private readonly maxBytes: number,
    private readonly hooks: CacheHooks,
  ) {
    this.root = join(dir, LAYOUT)
  }

  private entryPath(key: string): string {
    return join(this.root, key.slice(0, 2), key)
  }

  async get(key: string, verify?: VerifyEntry): Promise<Buffer | undefined> {
    const path = this.entryPath(key)
    let entry: Buffer
    let mtimeMs: number
    try {
      ;({ entry, mtimeMs } = await withOpenFiles(1, () => readEntry(path)))
    } catch (error) {
      debug('miss %s (%s)', key.slice(0, 12), (error as NodeJS.ErrnoException).code)
      return undefined
    }
    const payload = unframeEntry(MAGIC, key, entry)
    if (!payload) {
      debug('corrupt or misplaced entry %s treated as a miss and removed', path)
      await rm(path, { force: true }).catch(() => {})
      return undefined
    }
    if (verify && !(await verify(payload).catch(() => false))) {
      debug('entry %s does not decode to its original: treated as a miss and removed', path)
      await rm(path, { force: true }).catch(() => {})
      return undefined
    }
    // The mtime is the LRU clock: a hit makes the entry young again.
    if (Date.now() - mtimeMs > TOUCH_AFTER_MS) {
      const now = new Date()
      await utimes(path, now, now).catch(() => {})
    }
    return payload
  }

  async set(key: string, payload: Uint8Array): Promise<void> {
    const path = this.entryPath(key)
    const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`
    const entry = frameEntry(MAGIC, key, payload)
    try {
      await mkdir(join(this.root, key.slice(0, 2)), { recursive: true })
      await withOpenFiles(1, () => writeFile(temp, entry))
      // rename is atomic: a concurrent reader sees the old entry, the new one, or none.
      await rename(temp, path)
    } catch (error) {
      // A cache that cannot be written (read-only, full disk) slows the next run; it must
      // not fail this one.
      debug('cannot store %s: %s', path, (error as Error).message)
      this.hooks.onWriteError?.(error)
      await rm(temp, { force: true }).catch(() => {})
    }
  }

  async prune(): Promise<{ removedEntries: number; removedBytes: number; keptBytes: number }> {
    const { maxBytes } = this
    const entries = await this.entries()
    if (!entries) return { removedEntries: 0, removedBytes: 0, keptBytes: 0 }
    let total = entries.reduce((sum, entry) => sum + entry.size, 0)
    let removedEntries = 0
    let removedBytes = 0
    if (total > maxBytes) {
      entries.sort((a, b) => a.mtimeMs - b.mtimeMs)
      for (const entry of entries) {
        if (total <= maxBytes) break
        await rm(entry.path, { force: true }).catch(() => {})
        total -= entry.size
        removedBytes += entry.size
        removedEntries++
      }
    }
    debug('pruned %d entries (%d bytes); %d bytes kept of %d allowed', removedEntries, removedBytes, total, maxBytes)
    return { removedEntries, removedBytes, keptBytes: total }
  }

  /** Every entry file, old temp files removed on the way; undefined when the cache has no folder yet. */
  private async entries(): Promise<EntryFile[] | undefined> {
    let shards: string[] = []
    try {
      shards = await readdir(this.root)
    } catch {
      return undefined
    }
    const entries: EntryFile[] = []
    for (const shard of shards) {
      let names: string[] = []
      try {
        names = await readdir(join(this.root, shard))
      } catch {
        continue
      }
      for (const name of names) {
        const entry = await entryFile(join(this.root, shard, name), name)
        if (entry) entries.push(entry)
      }
    }
    return entries
  }
}

/** An entry's size and mtime; a temp file left by a killed run is removed when old. */
async function entryFile(path: string, name: string): Promise<EntryFile | undefined> {
  try {
    const info = await stat(path)
    if (ENTRY_NAME.test(name)) return { path, size: info.size, mtimeMs: info.mtimeMs }
    // Temp files left by a killed run: old ones are garbage, young ones may be in use.
    if (Date.now() - info.mtimeMs > 60 * 60 * 1000) await rm(path, { force: true })
  } catch {
    // Removed by a concurrent prune: nothing to count.
  }
  return undefined
}

/** An entry's bytes and mtime, through one handle (as many system calls as `readFile`). */
async function readEntry(path: string): Promise<{ entry: Buffer; mtimeMs: number }> {
  const handle = await open(path, 'r')
  try {
    const { size, mtimeMs } = await handle.stat()
    const entry = Buffer.allocUnsafe(size)
    let filled = 0
    while (filled < size) {
      const { bytesRead } = await handle.read(entry, filled, size - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return { entry: entry.subarray(0, filled), mtimeMs }
  } finally {
    await handle.close()
  }
}
