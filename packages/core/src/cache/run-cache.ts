import type { CompressLogger } from '../logger.js'
import { DEFAULT_COMPRESS_OPTIONS, type ResolvedCompressOptions } from '../options/compress-options.js'
import { withoutUserInfo } from '../options/shared-cache-location.js'
import { type CompressionCache, cacheWriteWarning, openCache } from './cache.js'
import { openS3Store, SILENCE_TIMEOUT_MS } from './s3-store.js'
import { type SharedCompressionCache, withSharedCache } from './shared-cache.js'

/**
 * The cache of one run: the local directory, with the shared bucket behind it when configured.
 * Every run opens its cache here (the build runner once for a whole build, `compressDirectory`
 * and `writeDeltas` when not given one), so none is ever local-only by accident.
 */
export interface RunCache {
  cache: CompressionCache
  /** A line for the log about the shared tier, or undefined without one. */
  summary(): string | undefined
}

export function openRunCache(
  options: Pick<ResolvedCompressOptions, 'cacheDir'> &
    Partial<Pick<ResolvedCompressOptions, 'cacheMaxBytes' | 'sharedCache'>>,
  logger: Pick<CompressLogger, 'warn'>,
): RunCache {
  let writeErrors = 0
  const maxBytes = options.cacheMaxBytes ?? DEFAULT_COMPRESS_OPTIONS.cacheMaxBytes
  const local = openCache(options.cacheDir, maxBytes, {
    onWriteError: (error) => {
      if (writeErrors++ === 0) logger.warn(cacheWriteWarning(String(options.cacheDir), error))
    },
  })
  const location = options.sharedCache ?? false
  if (location === false) return { cache: local, summary: () => undefined }
  const shared: SharedCompressionCache = withSharedCache(local, () => openS3Store(location), {
    onUnavailable: (error, operation) => {
      const name = (error as Error)?.name
      const why =
        name === 'TimeoutError'
          ? `no answer for ${SILENCE_TIMEOUT_MS / 1000} s, twice`
          : name && name !== 'Error'
            ? `${name}: ${(error as Error).message}`
            : ((error as Error)?.message ?? String(error))
      const where = `${location.url}${location.endpoint ? ` (endpoint ${withoutUserInfo(location.endpoint)})` : ''}`
      logger.warn(
        operation === 'read'
          ? `the shared cache ${where} cannot be read (${why}); compressing locally, the build goes on`
          : `the shared cache ${where} cannot be written (${why}); this run's results stay local`,
      )
    },
  })
  return {
    cache: shared,
    summary: () => {
      const { remoteHits, uploads, refused } = shared.stats
      return `shared cache ${location.url}: ${remoteHits} entries from the bucket, ${uploads} uploaded${refused > 0 ? `, ${refused} refused (corrupt, partial or foreign) and recomputed` : ''}`
    },
  }
}
