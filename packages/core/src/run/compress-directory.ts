import { realpath } from 'node:fs/promises'
import { resolve } from 'node:path'
import { withSiteLock } from '../fs/site-lock.js'
import type { CompressLogger } from '../logger.js'
import type { ResolvedCompressOptions } from '../options/compress-options.js'
import { FilesRun } from './compress-files.js'
import type { CompressHooks, CompressResult } from './context.js'
import { assertDirectory } from './inputs.js'

export type { CompressHooks, CompressLogger, CompressResult }

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
  await assertDirectory(resolve(dir))
  // The real path: the walk compares symlink targets against it, and `dist -> build/` is fine.
  const root = await realpath(resolve(dir))
  // A shard writes nothing into the site (and shards of one build may share a machine).
  if (hooks.shard) return await compressLocked(root, options, hooks)
  return await withSiteLock(
    root,
    (message) => hooks.logger?.info(message),
    () => compressLocked(root, options, hooks),
  )
}

async function compressLocked(
  root: string,
  options: ResolvedCompressOptions,
  hooks: CompressHooks,
): Promise<CompressResult> {
  const run = await FilesRun.open(root, options, hooks)
  try {
    const plan = await run.plan()
    const outcomes = await run.encodeAll(plan.jobs)
    return hooks.shard ? run.shardResult(outcomes, plan) : await run.commit(outcomes, plan)
  } finally {
    await run.close()
  }
}
