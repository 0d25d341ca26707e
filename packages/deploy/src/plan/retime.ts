// No same-size, same-mtime replacement (issue 36.2). nginx, Apache and Caddy make their ETags
// (and answer If-Modified-Since) from a file's size and mtime; a deploy keeps the source's
// mtimes, and builds that pin them (`SOURCE_DATE_EPOCH`, `cp -p`, `rsync -a`) give a changed
// file of the same length the same ETag: a browser holding the old version gets a 304 for it.
// So when a file's content changes and its source mtime is not later than what the target holds,
// the file and its variants and deltas are written one second (the ETag's unit) after the newest
// of them there: a key's mtime on the target only grows while its content changes, so no later
// version can repeat an earlier one's size and mtime, and If-Modified-Since sees the change too.

/** What retiming reads of a site object (plan.ts's `SiteObject`, named here so plan.ts can import this file). */
interface Timed {
  key: string
  originalPath: string
  mtimeMs: number
}

/** What retiming reads of a plan's phase: its uploads (retimed in place) and unchanged objects. */
interface TimedPhase {
  uploads: (Timed & { reason: string })[]
  unchanged: Timed[]
}

/** The ETag's unit in nginx, Apache and Caddy: whole seconds. */
const SECOND = 1000

/**
 * Moves the mtime of every upload of a file whose content changed (its original, or with
 * `keepOriginals: false` a variant, stored with other bytes) past the newest mtime the target
 * holds for that file's keys, when the source's is not already later. Only targets that report
 * mtimes (`RemoteObject.mtimeMs`) and write the plan's (the local folder) are concerned.
 */
export function retimeChangedFiles(
  phases: readonly TimedPhase[],
  remote: ReadonlyMap<string, { mtimeMs?: number | undefined }>,
): void {
  const uploads = phases.flatMap((p) => p.uploads)
  const withOriginal = new Set(
    phases
      .flatMap((p) => [...p.uploads, ...p.unchanged])
      .filter((o) => o.key === o.originalPath)
      .map((o) => o.key),
  )
  // A variant alone stored with other bytes (another encoder) decodes to the same file: no matter.
  const changed = new Set(
    uploads
      .filter((u) => u.reason === 'changed' && (u.key === u.originalPath || !withOriginal.has(u.originalPath)))
      .map((u) => u.originalPath),
  )
  for (const original of changed) {
    const mine = uploads.filter((u) => u.originalPath === original)
    const held = mine.map((u) => remote.get(u.key)?.mtimeMs).filter((t): t is number => t !== undefined)
    const source = mine[0]!.mtimeMs
    if (held.length === 0) continue
    const newest = Math.floor(Math.max(...held) / SECOND)
    if (Math.floor(source / SECOND) > newest) continue
    for (const upload of mine) upload.mtimeMs = (newest + 1) * SECOND
  }
}
