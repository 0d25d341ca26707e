// The settings `writeDeltas` takes from its run, and what it returns.
import type { CompressionCache } from '../cache/cache.js'
import type { Format } from '../codecs/table.js'
import type { Manifest } from '../manifest/manifest.js'
import type { ResolvedCompressOptions } from '../options/compress-options.js'
import type { WorkPool } from '../pool/pool.js'
import type { DeltaReport } from '../report/delta-report.js'
import type { PreviousVersionSource } from './previous-versions.js'

/**
 * The run's own settings: pass the resolved compress options of the run (`{ ...options, logger }`),
 * so deltas use its cache (the shared one included, `sharedCache`), concurrency and levels; and
 * its cache and pool when it has them open.
 */
export type WriteDeltasContext = Pick<ResolvedCompressOptions, 'cacheDir'> &
  Partial<Pick<ResolvedCompressOptions, 'cacheMaxBytes' | 'concurrency' | 'sharedCache'>> & {
    /** The run's levels: dcb and dcz take those of the codings they extend. @default each codec's default */
    levels?: Partial<Record<Format, number>> | undefined
    /**
     * The run's compression cache, already open. @default opened as a run opens it: `cacheDir`,
     * with the shared bucket behind it when `sharedCache` names one
     */
    cache?: CompressionCache | undefined
    /** The run's work pool. @default a pool of `concurrency` */
    pool?: WorkPool | undefined
    /** Overrides `options.previous` and the cache history, e.g. a deploy target's objects. */
    source?: PreviousVersionSource | undefined
    /**
     * Where a warning goes: the build history cannot be written (a read-only or full cache, a
     * file in its place). The deltas of this run are written anyway. @default silent
     */
    logger?: { warn(message: string): void } | undefined
  }

/** The manifest with the deltas recorded, and the delta report. */
export interface WriteDeltasResult {
  manifest: Manifest
  report: DeltaReport
}
