// One compress run of a folder, as named steps over its state: `open` (the previous manifest,
// the scan, the cache, the pool, the journal) -> `plan` (ownership, temp files, the jobs largest first, the shard) -> `encodeAll` (the encodes
// in the pool) -> `commit` (stale variants, the manifest, the removal of originals, the report)
// -> `close`. `writeDeltas`'s `DeltaRun` reads the same way.
import { unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { openRunCache } from '../cache/run-cache.js'
import { createDebug } from '../debug.js'
import { removeEmptyDeltaFolders } from '../deltas/stale-deltas.js'
import { openJournal, type RunJournal } from '../fs/journal.js'
import {
  assertWritableDirectory,
  cleanTempFiles,
  removeStaleVariants,
  unwritable,
  writeFileAtomically,
} from '../fs/write.js'
import type { CompressLogger } from '../logger.js'
import { MANIFEST_FILENAME } from '../manifest/manifest.js'
import type { ResolvedCompressOptions } from '../options/compress-options.js'
import { assertShardHasCache, shardJobs } from '../options/shard.js'
import { WorkPool } from '../pool/pool.js'
import { checkBudgets } from '../report/budget-check.js'
import { buildReport } from '../report/report.js'
import type { CompressHooks, CompressResult } from './context.js'
import { skipReason } from './eligibility.js'
import {
  type FileJob,
  type FileJobContext,
  type FileOutcome,
  runFileJob,
  type StatedFileJob,
  statFileJob,
} from './file-job.js'
import { type RunInputs, readRunInputs } from './inputs.js'
import { checkSidecarOwnership } from './ownership.js'
import { type RunAbort, runAbort } from './run-abort.js'
import { counters, debugCriticalPath, manifestOf } from './summary.js'

const debug = createDebug('preencode:run')

/** What `open` reads and opens before any file is encoded, besides what every file job reads. */
interface OpenedRun {
  started: number
  hooks: CompressHooks
  logger: CompressLogger
  /** The run's abort (`runAbort(hooks.signal)`): the first failed file stops the rest. */
  abort: RunAbort
  scan: RunInputs['scan']
  pending: FileJob[]
  /** The scan's variants, and the sidecars `plan` adopts: `ctx.existingVariants`. */
  variantsOnDisk: Set<string>
  /** Absent for a shard, which writes nothing into the site. */
  journal: RunJournal | undefined
  /** The cache's summary line for the log; undefined for the caller's cache (it logs it). */
  cacheSummary: () => string | undefined
}

/** The jobs of this run (this share of them for a shard) and the sidecars it owns. */
interface RunPlan {
  jobs: StatedFileJob[]
  owned: string[]
  tempFiles: number
}

const SILENT: CompressLogger = { info() {}, warn() {} }

export class FilesRun {
  /** Files that went away or changed while this run read them (`runFileJob`): skipped, named in the report. */
  private readonly late: string[] = []

  private constructor(
    private readonly ctx: FileJobContext,
    private readonly run: OpenedRun,
  ) {}

  /** Reads the previous manifest and the folder, opens the cache (unless `hooks` brings one), the pool and the journal. */
  static async open(root: string, options: ResolvedCompressOptions, hooks: CompressHooks): Promise<FilesRun> {
    const started = performance.now()
    const logger = hooks.logger ?? SILENT
    await assertWritableDirectory(root)
    const { previous, scan, pending } = await readRunInputs(root, options, logger)
    // One abort for the run: the first failure stops queued work instead of letting it run on.
    const abort = runAbort(hooks.signal)
    const pool = new WorkPool({ concurrency: options.concurrency, signal: abort.signal })
    if (hooks.shard) assertShardHasCache(options.cacheDir)
    // The build's cache when it passes one (it logs the summary and closes it), else this run's.
    const { cache, summary } = hooks.cache
      ? { cache: hooks.cache, summary: () => undefined }
      : openRunCache(options, logger)
    // A shard writes nothing into the site: nothing to journal.
    const journal = hooks.shard ? undefined : openJournal(root)
    const variantsOnDisk = new Set(scan.variants)
    const ctx: FileJobContext = {
      root,
      options,
      cache,
      pool,
      existingVariants: variantsOnDisk,
      previousFiles: new Map(previous?.files.map((file) => [file.path, file])),
      rule: {
        included: (path) => scan.included.has(path),
        excluded: (path) => scan.excluded.has(path),
        threshold: options.threshold,
      },
      signal: abort.signal,
      cacheOnly: hooks.shard !== undefined,
      ...(journal ? { journal } : {}),
    }
    const run = { started, hooks, logger, abort, scan, pending, variantsOnDisk, journal, cacheSummary: summary }
    return new FilesRun(ctx, run)
  }

  async plan(): Promise<RunPlan> {
    const { root } = this.ctx
    const { logger, scan, variantsOnDisk } = this.run
    let { pending } = this.run
    // Before anything is written: a sidecar name taken by a file preencode did not write stops
    // the run (or, holding exactly the bytes it would write, becomes preencode's).
    const { adopted } = await checkSidecarOwnership(this.ctx, pending, scan.foreign)
    const owned = [...scan.variants, ...adopted]
    for (const path of adopted) variantsOnDisk.add(path)
    if (adopted.length > 0) pending = pending.filter((job) => !variantsOnDisk.has(job.path))
    const tempFiles = await cleanTempFiles(root, scan.tempFiles)
    if (tempFiles > 0) logger.info(`removed ${tempFiles} temp files left by an interrupted run`)
    if (scan.journaled.length > 0)
      logger.info(`reusing ${scan.journaled.length} files an interrupted run wrote (its journal names them)`)
    const jobs = await this.jobsOf(pending)
    debug(
      '%d files (%d to recover from .gz), %d variants on disk (%d adopted), %d temp files removed',
      jobs.length,
      jobs.filter((j) => j.recoverFromGzip).length,
      owned.length,
      adopted.length,
      tempFiles,
    )
    return { jobs, owned, tempFiles }
  }

  /** Largest first, and a shard's share of them. */
  private async jobsOf(pending: FileJob[]): Promise<StatedFileJob[]> {
    const { root } = this.ctx
    const { hooks } = this.run
    // Largest first: brotli 11 on one 8 MB source map takes ~15 s, and started last it would run
    // alone on one core at the end (the longest-processing-time-first rule shortens the tail).
    const stated = await Promise.all(pending.map((job) => statFileJob(root, job)))
    pending.forEach((job, index) => {
      if (!stated[index]) this.late.push(job.path)
    })
    const all = stated
      .filter((job) => job !== undefined)
      .sort((a, b) => b.weight - a.weight || (a.path < b.path ? -1 : 1))
    if (!hooks.shard) return all
    // Split by the bytes that will be encoded: 50 MB of images cost nothing and must not unbalance the shares.
    const jobs = shardJobs(all, hooks.shard, (job) =>
      skipReason(this.ctx.rule, job.path, job.weight) ? 0 : job.weight,
    )
    debug(
      'shard %d/%d: %d of %d files, %d of %d bytes',
      hooks.shard.index,
      hooks.shard.count,
      jobs.length,
      all.length,
      jobs.reduce((t, j) => t + j.weight, 0),
      all.reduce((t, j) => t + j.weight, 0),
    )
    return jobs
  }

  /** Encodes every job in the pool; the first failure aborts the rest and is thrown. */
  async encodeAll(jobs: StatedFileJob[]): Promise<FileOutcome[]> {
    const { hooks, abort } = this.run
    const { pool } = this.ctx
    // Room for one largest file per encode slot, 16 MiB at least (pool.ts).
    pool.fitByteBudget(jobs.reduce((largest, job) => Math.max(largest, job.weight), 0))
    let done = 0
    let bytesDone = 0
    const bytesTotal = jobs.reduce((total, job) => total + job.weight, 0)
    const encodeStarted = performance.now()
    const settled = await Promise.allSettled(
      jobs.map(async (job) => {
        try {
          const outcome = await this.runJob(job)
          bytesDone += job.weight
          hooks.onProgress?.(++done, jobs.length, job.path, { done: bytesDone, total: bytesTotal })
          if (!outcome) this.late.push(job.path)
          return outcome
        } catch (error) {
          abort.fail(error)
          throw error
        }
      }),
    )
    abort.detach()
    const outcomes: FileOutcome[] = []
    for (const result of settled) {
      if (result.status === 'rejected') throw hooks.signal?.aborted ? hooks.signal.reason : firstFailure(settled)
      if (result.value) outcomes.push(result.value)
    }
    if (debug.enabled) debugCriticalPath(outcomes, performance.now() - encodeStarted, pool.concurrency)
    return outcomes
  }

  private async runJob(job: StatedFileJob): Promise<FileOutcome | undefined> {
    const fileStarted = performance.now()
    const outcome = await runFileJob(this.ctx, job)
    if (!outcome) debug('%s changed or went away while it was read: late, skipped', job.path)
    else if (debug.enabled)
      debug(
        '%s %d B: %d hits, %d misses, %s (%d ms)',
        job.path,
        outcome.entry.size,
        outcome.cacheHits,
        outcome.cacheMisses,
        outcome.skipped ?? outcome.entry.variants.map((v) => `${v.format} ${v.size}`).join(', '),
        Math.round(performance.now() - fileStarted),
      )
    return outcome
  }

  /** A shard writes nothing into the site: its manifest and report are only returned. */
  shardResult(outcomes: FileOutcome[], plan: RunPlan): CompressResult {
    const manifest = manifestOf(this.ctx.options, outcomes)
    const cleanup = { pruned: 0, stale: 0, tempFiles: plan.tempFiles, originalsRemoved: { files: 0, bytes: 0 } }
    return { manifest, report: buildReport(manifest, this.counters(outcomes, cleanup)) }
  }

  /** Removes stale variants, writes the manifest, removes originals, prunes the cache; the result. */
  async commit(outcomes: FileOutcome[], plan: RunPlan): Promise<CompressResult> {
    const { root, options, cache } = this.ctx
    const { logger, journal } = this.run
    const keep = new Set(outcomes.flatMap((o) => o.entry.variants.map((v) => v.path)))
    // Only sidecars an earlier manifest records (or adopted above): never a file of the user's.
    const stale = await removeStaleVariants(root, plan.owned, keep)
    if (stale.length > 0) logger.info(`removed ${stale.length} stale variants`)
    await removeEmptyDeltaFolders(root, stale)
    const manifest = manifestOf(options, outcomes)
    await writeFileAtomically(join(root, MANIFEST_FILENAME), `${JSON.stringify(manifest, null, 2)}\n`).catch(
      (cause: unknown) => {
        throw unwritable(join(root, MANIFEST_FILENAME), cause)
      },
    )
    // The manifest records every variant the journal lists, or they were removed as stale.
    await journal?.finish()
    const originalsRemoved = await this.removeOriginals(outcomes)
    const cacheMisses = outcomes.reduce((total, o) => total + o.cacheMisses, 0)
    // Only new entries can push the cache over its bound; a fully cached run skips the directory walk.
    const pruned = cacheMisses > 0 ? await cache.prune() : { removedEntries: 0 }
    const cleanup = { pruned: pruned.removedEntries, stale: stale.length, tempFiles: plan.tempFiles, originalsRemoved }
    const report = buildReport(manifest, this.counters(outcomes, cleanup))
    if (options.budgets.length > 0) report.budgets = checkBudgets(manifest, options.budgets)
    return { manifest, report }
  }

  /**
   * keepOriginals: false. The .gz variants are complete and the manifest records the originals
   * as gone: only now may they go. A run killed here leaves originals the next run reuses.
   */
  private async removeOriginals(outcomes: FileOutcome[]): Promise<{ files: number; bytes: number }> {
    let originalsRemoved = { files: 0, bytes: 0 }
    for (const outcome of outcomes) {
      if (!outcome.removeOriginal) continue
      await unlink(join(this.ctx.root, outcome.entry.path))
      originalsRemoved = { files: originalsRemoved.files + 1, bytes: originalsRemoved.bytes + outcome.entry.size }
    }
    return originalsRemoved
  }

  private counters(outcomes: FileOutcome[], cleanup: Parameters<typeof counters>[5]): ReturnType<typeof counters> {
    const { root, options, pool } = this.ctx
    return { ...counters(root, options, this.run.started, outcomes, pool, cleanup), late: this.late.sort() }
  }

  /** Closes the journal (removed once the manifest is written: kept for the next run otherwise) and the cache `open` opened. */
  async close(): Promise<void> {
    const { journal, logger, hooks, cacheSummary } = this.run
    await journal?.close()
    const summary = cacheSummary()
    if (summary) logger.info(summary)
    if (!hooks.cache) this.ctx.cache.close?.()
  }
}

/** The error that started the abort, not the AbortErrors it caused in the other jobs. */
function firstFailure(settled: PromiseSettledResult<FileOutcome | undefined>[]): unknown {
  const reasons = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
  return reasons.find((r) => !(r instanceof Error && r.name === 'AbortError')) ?? reasons[0]
}
