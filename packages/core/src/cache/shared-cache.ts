import { createDebug } from '../debug.js'
import { isPreencodeError } from '../errors.js'
import type { CompressionCache, VerifyEntry } from './cache.js'
import { frameEntry, unframeEntry } from './entry-frame.js'
import type { RemoteStore } from './s3-store.js'

/**
 * A local cache with a shared one behind it: a CI fleet shares compressed results by content
 * key, so a fresh runner with an empty local cache compresses nothing any runner compressed
 * before. Lookups try the local directory first, then the bucket (a remote hit is copied to the
 * local cache); new entries go to both.
 *
 * Remote entries come from other machines, so each is checked before use: its frame
 * (`entry-frame.ts`: `MAGIC | sha256(key | payload) | payload`) catches a partial upload, bit rot and an entry
 * of another key or another tool (foreign), and `verify` decodes it against the original. A bad
 * entry is a miss: the run recomputes it and overwrites it. A bucket that fails (down, no
 * network, denied) turns the shared tier off for the rest of the run with one call of
 * `onUnavailable`; the run goes on locally and never fails for it.
 */
export interface SharedCacheHooks {
  /** Called once, on the first failure that turns the shared tier off. */
  onUnavailable?: (error: unknown, operation: 'read' | 'write') => void
}

interface SharedCacheStats {
  /** Entries found in the bucket (not locally) and used. */
  remoteHits: number
  /** Entries uploaded to the bucket. */
  uploads: number
  /** Entries found in the bucket but refused: corrupt, partial, foreign, or not decoding to the original. */
  refused: number
}

export interface SharedCompressionCache extends CompressionCache {
  readonly stats: Readonly<SharedCacheStats>
}

const MAGIC = Buffer.from('PES1')
const OFF = Symbol('shared cache off')
const debug = createDebug('preencode:cache')

/** `openStore` runs on first use, so `@aws-sdk/client-s3` is loaded only when a run needs it. */
export function withSharedCache(
  local: CompressionCache,
  openStore: () => Promise<RemoteStore>,
  hooks: SharedCacheHooks = {},
): SharedCompressionCache {
  let store: Promise<RemoteStore> | undefined
  let readable = true
  let writable = true
  const stats: SharedCacheStats = { remoteHits: 0, uploads: 0, refused: 0 }
  const connect = (): Promise<RemoteStore> => (store ??= openStore())
  // Aborted when reads (or writes) go off: requests queued or in flight stop being waited for,
  // so a bucket that never answers costs the first request's timeout, not one per queued request.
  const readsOff = new AbortController()
  const writesOff = new AbortController()

  /** A setup mistake (the SDK missing) fails the run; anything the bucket does degrades it. */
  const degrade = (error: unknown, operation: 'read' | 'write'): void => {
    if (isPreencodeError(error) && error.isUserError) throw error
    const wasOn = readable && writable
    if (operation === 'read') readable = false
    // A bucket that cannot be read is not written either; one that refuses writes (a read-only
    // key for pull requests) is still read.
    writable = false
    debug('shared cache off for %s: %s', operation, (error as Error)?.message ?? String(error))
    if (!readable) readsOff.abort()
    writesOff.abort()
    if (wasOn) hooks.onUnavailable?.(error, operation)
  }

  return {
    dir: local.dir,
    stats,
    async get(key, verify) {
      const hit = await local.get(key, verify)
      if (hit || !readable) return hit
      let entry: Buffer | undefined | typeof OFF
      try {
        entry = await unlessOff(readsOff.signal, async () => (await connect()).get(key))
      } catch (error) {
        if (!readable) return undefined // another request already turned the tier off
        degrade(error, 'read')
        return undefined
      }
      if (entry === undefined || entry === OFF) return undefined
      const payload = await unframe(key, entry, verify)
      if (payload === undefined) {
        stats.refused++
        debug('shared entry %s refused (corrupt, partial, foreign or not the original): recomputed', key.slice(0, 12))
        return undefined
      }
      stats.remoteHits++
      await local.set(key, payload)
      return payload
    },

    async set(key, payload) {
      await local.set(key, payload)
      if (!writable) return
      try {
        const done = await unlessOff(writesOff.signal, async () =>
          (await connect()).put(key, frameEntry(MAGIC, key, payload)),
        )
        if (done !== OFF) stats.uploads++
      } catch (error) {
        if (writable) degrade(error, 'write')
      }
    },

    prune: () => local.prune(),

    close() {
      local.close?.()
      void store?.then(
        (s) => s.close(),
        () => {},
      )
    },
  }
}

/** `work()`, or OFF as soon as `signal` aborts (the request itself ends on its own timeout). */
async function unlessOff<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T | typeof OFF> {
  if (signal.aborted) return OFF
  let onAbort = (): void => {}
  const aborted = new Promise<typeof OFF>((resolve) => {
    onAbort = () => resolve(OFF)
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([work(), aborted])
  } finally {
    // Thousands of requests share the signal: a listener left on it per request would leak.
    signal.removeEventListener('abort', onAbort)
  }
}

async function unframe(key: string, entry: Buffer, verify: VerifyEntry | undefined): Promise<Buffer | undefined> {
  const payload = unframeEntry(MAGIC, key, entry)
  if (!payload) return undefined
  if (verify && !(await verify(payload).catch(() => false))) return undefined
  return payload
}
