// The body of one compress run once its inputs are read: ownership, the encodes in the pool,
// stale variants, the manifest, the removal of originals, the report.
import { unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { checkBudgets } from '../report/budget-check.js'
import type { CompressionCache } from '../cache/cache.js'
import { createDebug } from '../debug.js'
import type { CompressLogger } from '../logger.js'
import { runFileJob, skipReason, statFileJob, type FileJob, type FileJobContext, type FileOutcome } from './file-job.js'
import type { RunJournal } from '../fs/journal.js'
import { MANIFEST_FILENAME, type Manifest } from '../manifest/manifest.js'
import type { ResolvedCompressOptions } from '../options/compress-options.js'
import type { WorkPool } from '../pool/pool.js'
import { shardJobs } from '../options/shard.js'
import { buildReport } from '../report/report.js'
import { checkSidecarOwnership } from './ownership.js'
import { counters, debugCriticalPath, manifestOf } from './summary.js'
import type { scanDirectory } from './scan.js'
import { removeEmptyDeltaFolders } from '../deltas/stale-deltas.js'
import { cleanTempFiles, removeStaleVariants, unwritable, writeFileAtomically } from '../fs/write.js'
import type { CompressResult, CompressRun } from './context.js'

const debug = createDebug('preencode:run')

export interface RunState {
  started: number
  previous: Manifest | undefined
  scan: Awaited<ReturnType<typeof scanDirectory>>
  pending: FileJob[]
  variantsOnDisk: Set<string>
  pool: WorkPool
}

export async function compressWithCache(
  root: string,
  options: ResolvedCompressOptions,
  run: CompressRun,
  logger: CompressLogger,
  controller: AbortController,
  abortRun: () => void,
  cache: CompressionCache,
  journal: RunJournal | undefined,
  state: RunState,
): Promise<CompressResult> {
  const { started, scan, variantsOnDisk, pool } = state
  let { pending } = state
  const ctx: FileJobContext = {
    root,
    options,
    cache,
    pool,
    existingVariants: variantsOnDisk,
    previousFiles: new Map(state.previous?.files.map((file) => [file.path, file])),
    included: scan.included,
    excluded: scan.excluded,
    signal: controller.signal,
    cacheOnly: run.shard !== undefined,
    ...(journal ? { journal } : {}),
  }
  // Before anything is written: a sidecar name taken by a file preencode did not write stops
  // the run (or, holding exactly the bytes it would write, becomes preencode's).
  const { adopted } = await checkSidecarOwnership(ctx, pending, scan.foreign)
  const owned = [...scan.variants, ...adopted]
  for (const path of adopted) variantsOnDisk.add(path)
  if (adopted.length > 0) pending = pending.filter((job) => !variantsOnDisk.has(job.path))
  const tempFiles = await cleanTempFiles(root, scan.tempFiles)
  if (tempFiles > 0) logger.info(`removed ${tempFiles} temp files left by an interrupted run`)
  if (scan.journaled.length > 0)
    logger.info(`reusing ${scan.journaled.length} files an interrupted run wrote (its journal names them)`)
  // Largest first: brotli 11 on one 8 MB source map takes ~15 s, and started last it would run
  // alone on one core at the end (the longest-processing-time-first rule shortens the tail).
  const all = (await Promise.all(pending.map((job) => statFileJob(root, job)))).sort(
    (a, b) => b.weight - a.weight || (a.path < b.path ? -1 : 1),
  )
  // Split by the bytes that will be encoded: 50 MB of images cost nothing and must not unbalance the shares.
  const jobs = run.shard
    ? shardJobs(all, run.shard, (job) => (skipReason(ctx, job.path, job.weight) ? 0 : job.weight))
    : all
  if (run.shard)
    debug(
      'shard %d/%d: %d of %d files, %d of %d bytes',
      run.shard.index,
      run.shard.count,
      jobs.length,
      all.length,
      jobs.reduce((t, j) => t + j.weight, 0),
      all.reduce((t, j) => t + j.weight, 0),
    )
  debug(
    '%d files (%d to recover from .gz), %d variants on disk (%d adopted), %d temp files removed',
    jobs.length,
    jobs.filter((j) => j.recoverFromGzip).length,
    owned.length,
    adopted.length,
    tempFiles,
  )

  // Room for one largest file per encode slot, 16 MiB at least (pool.ts).
  pool.fitByteBudget(jobs.reduce((largest, job) => Math.max(largest, job.weight), 0))
  let done = 0
  let bytesDone = 0
  const bytesTotal = jobs.reduce((total, job) => total + job.weight, 0)
  const encodeStarted = performance.now()
  const settled = await Promise.allSettled(
    jobs.map(async (job) => {
      try {
        const fileStarted = performance.now()
        const outcome = await runFileJob(ctx, job)
        if (debug.enabled)
          debug(
            '%s %d B: %d hits, %d misses, %s (%d ms)',
            job.path,
            outcome.entry.size,
            outcome.cacheHits,
            outcome.cacheMisses,
            outcome.skipped ?? outcome.entry.variants.map((v) => `${v.format} ${v.size}`).join(', '),
            Math.round(performance.now() - fileStarted),
          )
        bytesDone += job.weight
        run.onProgress?.(++done, jobs.length, job.path, { done: bytesDone, total: bytesTotal })
        return outcome
      } catch (error) {
        controller.abort(error)
        throw error
      }
    }),
  )
  run.signal?.removeEventListener('abort', abortRun)
  const outcomes: FileOutcome[] = []
  for (const result of settled) {
    if (result.status === 'rejected') throw run.signal?.aborted ? run.signal.reason : firstFailure(settled)
    outcomes.push(result.value)
  }
  if (debug.enabled) debugCriticalPath(outcomes, performance.now() - encodeStarted, pool.concurrency)
  if (run.shard)
    return {
      manifest: manifestOf(options, outcomes),
      report: buildReport(
        manifestOf(options, outcomes),
        counters(root, options, started, outcomes, pool, {
          pruned: 0,
          stale: 0,
          tempFiles,
          originalsRemoved: { files: 0, bytes: 0 },
        }),
      ),
    }

  const keep = new Set(outcomes.flatMap((o) => o.entry.variants.map((v) => v.path)))
  // Only sidecars an earlier manifest records (or adopted above): never a file of the user's.
  const stale = await removeStaleVariants(root, owned, keep)
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
  // keepOriginals: false. The .gz variants are complete and the manifest records the originals
  // as gone: only now may they go. A run killed here leaves originals the next run reuses.
  let originalsRemoved = { files: 0, bytes: 0 }
  for (const outcome of outcomes) {
    if (!outcome.removeOriginal) continue
    await unlink(join(root, outcome.entry.path))
    originalsRemoved = { files: originalsRemoved.files + 1, bytes: originalsRemoved.bytes + outcome.entry.size }
  }
  const cacheMisses = outcomes.reduce((total, o) => total + o.cacheMisses, 0)
  // Only new entries can push the cache over its bound; a fully cached run skips the directory walk.
  const pruned = cacheMisses > 0 ? await cache.prune() : { removedEntries: 0 }

  const report = buildReport(
    manifest,
    counters(root, options, started, outcomes, pool, {
      pruned: pruned.removedEntries,
      stale: stale.length,
      tempFiles,
      originalsRemoved,
    }),
  )
  if (options.budgets.length > 0) report.budgets = checkBudgets(manifest, options.budgets)
  return { manifest, report }
}

/** The error that started the abort, not the AbortErrors it caused in the other jobs. */
function firstFailure(settled: PromiseSettledResult<FileOutcome>[]): unknown {
  const reasons = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
  return reasons.find((r) => !(r instanceof Error && r.name === 'AbortError')) ?? reasons[0]
}
