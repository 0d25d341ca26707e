/**
 * Delta updates for versioned assets (RFC 9842). After `compressDirectory`, for every
 * content-hashed asset: announce it as a dictionary for its next versions (`useAsDictionary` in
 * the manifest, served as `Use-As-Dictionary`), and if it is a new version of a file visitors may
 * hold an older version of, write `.dcb`/`.dcz` deltas against those versions. A delta is written
 * only when smaller than every other representation; stale deltas are removed; the manifest is
 * rewritten atomically. The previous versions are read from a deployed folder or from the
 * cache's build history, so a fresh CI runner with a persisted cache or a reachable deploy works.
 */
import { assertDictionarySupport } from '../codecs/dictionary.js'
import { withSiteLock } from '../fs/site-lock.js'
import type { Manifest } from '../manifest/manifest.js'
import type { ResolvedDeltaOptions } from '../options/delta-options.js'
import type { WriteDeltasContext, WriteDeltasResult } from './delta-context.js'
import { DeltaRun } from './delta-run.js'

export type { WriteDeltasContext, WriteDeltasResult } from './delta-context.js'

/** Adds deltas to the site at `dir` described by `manifest` (as `compressDirectory` left it). */
export async function writeDeltas(
  dir: string,
  manifest: Manifest,
  options: ResolvedDeltaOptions,
  context: WriteDeltasContext,
): Promise<WriteDeltasResult> {
  assertDictionarySupport('deltas')
  return await withSiteLock(
    dir,
    (message) => context.logger?.warn(message),
    () => writeDeltasLocked(dir, manifest, options, context),
    true,
  )
}

async function writeDeltasLocked(
  dir: string,
  manifest: Manifest,
  options: ResolvedDeltaOptions,
  context: WriteDeltasContext,
): Promise<WriteDeltasResult> {
  const run = await DeltaRun.open(dir, manifest, options, context)
  try {
    await run.encodeAll()
    return await run.commit()
  } finally {
    run.close()
  }
}
