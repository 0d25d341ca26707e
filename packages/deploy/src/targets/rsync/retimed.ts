// The uploads the plan moved past the target's mtime (`plan/retime.ts`, issue 36.2): rsync sends
// each file with its source's mtime (`--times`), so these are copied into the deploy's work
// folder, given the plan's mtime, and sent from there. Rare: only a file whose content changed
// while its source mtime was not later than the server's copy (builds that pin mtimes).
import { copyFile, mkdir, stat, utimes } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { isSafeRelativePath } from '@preencode/core/internal'
import type { PlannedUpload } from '../../plan/plan.js'

/** Copies the retimed uploads from `root` into `stage` with the plan's mtimes; their keys. */
export async function stageRetimed(
  uploads: readonly PlannedUpload[],
  root: string,
  stage: string,
): Promise<Set<string>> {
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
