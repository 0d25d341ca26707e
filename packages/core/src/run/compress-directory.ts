import { realpath } from 'node:fs/promises'
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { openRunCache } from '../cache/run-cache.js'
import { CODECS, FALLBACK_FORMAT } from '../codecs/table.js'
import { createDebug } from '../debug.js'
import { userError } from '../errors.js'
import { openJournal } from '../fs/journal.js'
import { withSiteLock } from '../fs/site-lock.js'
import { assertWritableDirectory } from '../fs/write.js'
import type { CompressLogger } from '../logger.js'
import type { ResolvedCompressOptions } from '../options/compress-options.js'
import { WorkPool } from '../pool/pool.js'
import { compressWithCache } from './compress-files.js'
import type { CompressHooks, CompressResult } from './context.js'
import type { FileJob } from './file-job.js'
import { assertDirectory, readPreviousManifest } from './inputs.js'
import { runAbort } from './run-abort.js'
import { scanDirectory } from './scan.js'
import { warnSkipped } from './summary.js'

export type { CompressHooks, CompressLogger, CompressResult }

const SILENT: CompressLogger = { info() {}, warn() {} }
const _debug = createDebug('preencode:run')

/**
 * Compresses every qualifying file under `dir` in place: writes `.gz/.br/.zst` sidecars (only
 * when strictly smaller and saving at least `minSaving`), removes stale ones, and writes
 * `<dir>/.preencode-manifest.json`. Safe to rerun, and to kill: a rerun cleans up after it.
 * `options`: what `resolveCompressOptions` returned (a copy with a field changed is fine);
 * scripts with user options call `compress(dir, options)`.
 */
export async function compressDirectory(
  dir: string,
  options: ResolvedCompressOptions,
  hooks: CompressHooks = {},
): Promise<CompressResult> {
  const started = performance.now()
  const logger = hooks.logger ?? SILENT
  await assertDirectory(resolve(dir))
  // The real path: the walk compares symlink targets against it, and `dist -> build/` is fine.
  const root = await realpath(resolve(dir))
  // A shard writes nothing into the site (and shards of one build may share a machine).
  if (hooks.shard) return await compressLocked(root, options, hooks, logger, started)
  return await withSiteLock(
    root,
    (message) => logger.info(message),
    () => compressLocked(root, options, hooks, logger, started),
  )
}

async function compressLocked(
  root: string,
  options: ResolvedCompressOptions,
  hooks: CompressHooks,
  logger: CompressLogger,
  started: number,
): Promise<CompressResult> {
  await assertWritableDirectory(root)

  const previous = await readPreviousManifest(root, logger)
  const scan = await scanDirectory(root, {
    include: options.include,
    exclude: options.exclude,
    ...(previous ? { previous } : {}),
    skipDirs: options.cacheDir === false ? [] : [options.cacheDir],
  })
  warnSkipped(logger, root, scan.skipped)
  // A typo in `include` (`*.hmtl`) would otherwise strip every variant without a word.
  if (options.include.length > 0 && scan.included.size === 0 && scan.originals.length > 0)
    logger.warn(
      `\`include\` (${options.include.map(String).join(', ')}) matches no file in ${root}: no file is compressed, and variants written before are removed`,
    )

  // Originals that `keepOriginals: false` removed last time: their .gz carries the bytes.
  const onDisk = new Set(scan.originals)
  const variantsOnDisk = new Set(scan.variants)
  const pending: FileJob[] = scan.originals.map((path) => ({ path, recoverFromGzip: false }))
  for (const file of previous?.files ?? []) {
    if (
      !file.originalOnDisk &&
      !onDisk.has(file.path) &&
      variantsOnDisk.has(`${file.path}${CODECS[FALLBACK_FORMAT].extension}`)
    ) {
      pending.push({ path: file.path, recoverFromGzip: true, expectedSize: file.size })
    }
  }
  // One abort for the run: the first failure stops queued work instead of letting it run on.
  const abort = runAbort(hooks.signal)
  const pool = new WorkPool({ concurrency: options.concurrency, signal: abort.signal })
  if (hooks.shard && options.cacheDir === false)
    throw userError(
      'options',
      'A sharded run (`shard`, --shard) fills the cache for the final run to assemble from: it needs a cache, best a shared one (s3://bucket/prefix); drop --no-cache.',
    )
  // The build's cache when it passes one (it logs the summary and closes it), else this run's.
  const runCache = hooks.cache ? { cache: hooks.cache, summary: () => undefined } : openRunCache(options, logger)
  // A shard writes nothing into the site: nothing to journal.
  const journal = hooks.shard ? undefined : openJournal(root)
  try {
    const state = { started, previous, scan, pending, variantsOnDisk, pool }
    return await compressWithCache({ root, options, hooks, logger, abort, cache: runCache.cache, journal, state })
  } finally {
    // Removed once the manifest is written (compressWithCache); kept for the next run otherwise.
    await journal?.close()
    const summary = runCache.summary()
    if (summary) logger.info(summary)
    if (!hooks.cache) runCache.cache.close?.()
  }
}
