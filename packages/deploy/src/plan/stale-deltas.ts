// Which deltas a deploy deletes whatever `delete` and `keep` say. A delta
// (`<file>.dict/<id>.<ext>.dcb|dcz`) is a delta of one version of its file; servers pick it
// because it exists (nginx `try_files`, the middleware, a Worker), so once its file changed it
// would give a visitor holding that dictionary the old file (issue 30.1: old pages served). A
// delta on a target must always decode to the file live beside it.
import { originalOfDeltaPath } from '@preencode/core/internal'

/** Whether a key has the shape of a delta: preencode's own, whatever the target's history. */
export function isDeltaKey(key: string): boolean {
  return originalOfDeltaPath(key) !== undefined
}

/**
 * The stale keys (not in the new site) that are deltas which may not decode to the file beside
 * them after this deploy: deleted after the new files are live, whatever `delete` and `keep` say
 * (that visitor gets br). A delta the live deploy named (`liveKeys`, the newest deploy record)
 * was made for that deploy's version of its file; while this deploy leaves the file as it is
 * (`rewritten`: originals whose bytes or variants this deploy writes), it still decodes to it
 * and follows the grace period like any stale key: a page still open can use it. Every other
 * delta — its file rewritten, or left by an older deploy — is outdated.
 */
export function outdatedDeltas(
  stale: readonly string[],
  liveKeys: readonly string[] | undefined,
  rewritten: ReadonlySet<string>,
): Set<string> {
  const live = new Set(liveKeys ?? [])
  const outdated = new Set<string>()
  for (const key of stale) {
    const original = originalOfDeltaPath(key)
    if (original !== undefined && (!live.has(key) || rewritten.has(original))) outdated.add(key)
  }
  return outdated
}
