import type { CompressionCache } from '../cache/cache.js'
import type { RunJournal } from '../fs/journal.js'
import type { CompressLogger } from '../logger.js'
import type { Manifest, ManifestFile } from '../manifest/manifest.js'
import type { ResolvedCompressOptions } from '../options/compress-options.js'
import type { Shard } from '../options/shard.js'
import type { WorkPool } from '../pool/pool.js'
import type { ProgressBytes } from '../report/progress.js'
import type { CompressReport } from '../report/report.js'
import type { FileRule } from './eligibility.js'

/** Everything one file's job reads; shared by all jobs of a run. */
export interface FileJobContext {
  /** Absolute root directory. */
  root: string
  options: ResolvedCompressOptions
  cache: CompressionCache
  pool: WorkPool
  /** Variant paths found on disk by the scan: rewritten only when their bytes differ. */
  existingVariants: ReadonlySet<string>
  /**
   * The previous manifest's files by path: a cache hit equal to the variant it records for the
   * same original, still on disk, needs no decode (`known-variant.ts`).
   * @default none
   */
  previousFiles?: ReadonlyMap<string, ManifestFile>
  /** Which files get compressed (`eligibility.ts`), with the scan's `include`/`exclude` sets. */
  rule: FileRule
  signal: AbortSignal
  /**
   * A `--shard` run: encode into the cache and write nothing into the site (the final,
   * unsharded run assembles the site from the cache).
   * @default false
   */
  cacheOnly?: boolean
  /** Where each variant is recorded before it is put under its final name (`journal.ts`). */
  journal?: RunJournal
}

/** Per-call hooks, kept apart from `CompressOptions` because they are not configuration. */
export interface CompressHooks {
  /**
   * Where notes and warnings go (a corrupt previous manifest, say). Library code never prints.
   * @default silent
   */
  logger?: CompressLogger
  /**
   * Called after each file; pass `createProgress(process.stderr).update` for a TTY display.
   * `bytes` counts the originals' bytes finished and in all, for a rate and a time left.
   */
  onProgress?: (done: number, total: number, path: string, bytes: ProgressBytes) => void
  /** Aborting stops queued work; files already complete stay, nothing half-written appears. */
  signal?: AbortSignal
  /**
   * Compress only this share of the files (split by bytes) into the cache, writing nothing into
   * the directory: several CI jobs each take one share, then one unsharded run with the same
   * (shared) cache assembles the site without encoding. See docs/shared-cache.md.
   * @default undefined (every file, written)
   */
  shard?: Shard
  /**
   * The compression cache, already open (`openRunCache`), shared with the rest of a build: the
   * build runner passes one to every compression and to `writeDeltas`, and closes it. Not
   * closed here.
   * @default opened from the options for this run, and closed at its end
   */
  cache?: CompressionCache
}

/** What one compress run leaves: the manifest it wrote and its report. */
export interface CompressResult {
  manifest: Manifest
  report: CompressReport
}
