// The body of one compress run once its inputs are read, as named steps over its state:
// `plan` (ownership, temp files, the jobs largest first, the shard) -> `encodeAll` (the encodes
// in the pool) -> `commit` (stale variants, the manifest, the removal of originals, the report).
import { unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { CompressionCache } from '../cache/cache.js'
import { createDebug } from '../debug.js'
import { removeEmptyDeltaFolders } from '../deltas/stale-deltas.js'
import type { RunJournal } from '../fs/journal.js'
import { cleanTempFiles, removeStaleVariants, unwritable, writeFileAtomically } from '../fs/write.js'
import type { CompressLogger } from '../logger.js'
import { MANIFEST_FILENAME, type Manifest } from '../manifest/manifest.js'
import type { ResolvedCompressOptions } from '../options/compress-options.js'
import { shardJobs } from '../options/shard.js'
import type { WorkPool } from '../pool/pool.js'
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
import { checkSidecarOwnership } from './ownership.js'
import type { RunAbort } from './run-abort.js'
import type { scanDirectory } from './scan.js'
import { counters, debugCriticalPath, manifestOf } from './summary.js'

const debug = createDebug('preencode:run')

interface RunState {
  started: number
  previous: Manifest | undefined
  scan: Awaited<ReturnType<typeof scanDirectory>>
  pending: FileJob[]
  variantsOnDisk: Set<string>
  pool: WorkPool
}

/** What `compressDirectory` hands over once the inputs are read and the cache and journal open. */
export interface CompressFilesInput {
  root: string
  options: ResolvedCompressOptions
  hooks: CompressHooks
  logger: CompressLogger
  /** The run's abort (`runAbort(hooks.signal)`): the first failed file stops the rest. */
  abort: RunAbort
  cache: CompressionCache
  /** Absent for a shard, which writes nothing into the site. */
  journal: RunJournal | undefined
  state: RunState
}

/** The jobs of this run (this share of them for a shard) and the sidecars it owns. */
interface RunPlan {
  jobs: StatedFileJob[]
  owned: string[]
  tempFiles: number
}

export async function compressWithCache(input: CompressFilesInput): Promise<CompressResult> {
  const files = new FilesRun(input)
  const plan = await files.plan()
  const outcomes = await files.encodeAll(plan.jobs)
  return input.hooks.shard ? files.shardResult(outcomes, plan) : await files.commit(outcomes, plan)
}

class FilesRun {
  private readonly ctx: FileJobContext
  /** Files that went away or changed while this run read them (`runFileJob`): skipped, named in the report. */
  private readonly late: string[] = []

  constructor(private readonly input: CompressFilesInput) {
    const { root, options, cache, hooks, journal, state, abort } = input
    this.ctx = {
      root,
      options,
      cache,
      pool: state.pool,
      existingVariants: state.variantsOnDisk,
      previousFiles: new Map(state.previous?.files.map((file) => [file.path, file])),
      rule: {
        included: (path) => state.scan.included.has(path),
        excluded: (path) => state.scan.excluded.has(path),
        threshold: options.threshold,
      },
      signal: abort.signal,
      cacheOnly: hooks.shard !== undefined,
      ...(journal ? { journal } : {}),
    }
  }

  async plan(): Promise<RunPlan> {
    const { root, logger, state } = this.input
    const { scan, variantsOnDisk } = state
    let { pending } = state
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
    const { root, hooks } = this.input
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
    const { hooks, abort, state } = this.input
    // Room for one largest file per encode slot, 16 MiB at least (pool.ts).
    state.pool.fitByteBudget(jobs.reduce((largest, job) => Math.max(largest, job.weight), 0))
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
    if (debug.enabled) debugCriticalPath(outcomes, performance.now() - encodeStarted, state.pool.concurrency)
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
    const manifest = manifestOf(this.input.options, outcomes)
    const cleanup = { pruned: 0, stale: 0, tempFiles: plan.tempFiles, originalsRemoved: { files: 0, bytes: 0 } }
    return { manifest, report: buildReport(manifest, this.counters(outcomes, cleanup)) }
  }

  /** Removes stale variants, writes the manifest, removes originals, prunes the cache; the result. */
  async commit(outcomes: FileOutcome[], plan: RunPlan): Promise<CompressResult> {
    const { root, options, logger, journal, cache } = this.input
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
      await unlink(join(this.input.root, outcome.entry.path))
      originalsRemoved = { files: originalsRemoved.files + 1, bytes: originalsRemoved.bytes + outcome.entry.size }
    }
    return originalsRemoved
  }

  private counters(outcomes: FileOutcome[], cleanup: Parameters<typeof counters>[5]): ReturnType<typeof counters> {
    const { root, options, state } = this.input
    return { ...counters(root, options, state.started, outcomes, state.pool, cleanup), late: this.late.sort() }
  }
}

/** The error that started the abort, not the AbortErrors it caused in the other jobs. */
function firstFailure(settled: PromiseSettledResult<FileOutcome | undefined>[]): unknown {
  const reasons = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
  return reasons.find((r) => !(r instanceof Error && r.name === 'AbortError')) ?? reasons[0]
}
