// The uploads the plan moved past the target's mtime (`plan/retime.ts`, issue 36.2): rsync sends
// each file with its source's mtime (`--times`), so these are copied into the deploy's work
// folder, given the plan's mtime, and sent from there. Rare: only a file whose content changed
// while its source mtime was not later than the server's copy (builds that pin mtimes).
import { copyFile, mkdir, stat, utimes } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { isSafeRelativePath } from '@preencode/core/internal'

/** What staging reads of an object: its key, the mtime it must have there, and why it is sent. */
interface Timed {
  key: string
  mtimeMs: number
  reason?: string
}

/**
 * Copies the objects whose source mtime is not the one they must have (`mtimeMs`) from `root`
 * into `stage` with that mtime; their keys. The retimed uploads, and in release mode the
 * unchanged files an earlier deploy retimed: sent from the source, rsync would see another mtime
 * than the live release's, copy them instead of linking, and put the earlier mtime back — the
 * size-and-mtime ETag an earlier version had.
 */
export async function stageRetimed(uploads: readonly Timed[], root: string, stage: string): Promise<Set<string>> {
  const staged = new Set<string>()
  for (const upload of uploads) {
    if (upload.reason === 'unknown' || !isSafeRelativePath(upload.key)) continue
    const source = join(root, upload.key)
    if (Math.floor((await stat(source)).mtimeMs / 1000) === Math.floor(upload.mtimeMs / 1000)) continue
    const copy = join(stage, upload.key)
    await mkdir(dirname(copy), { recursive: true })
    await copyFile(source, copy)
    const time = new Date(upload.mtimeMs)
    await utimes(copy, time, time)
    staged.add(upload.key)
  }
  return staged
}
