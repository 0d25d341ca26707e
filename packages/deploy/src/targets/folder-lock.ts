// One deploy at a time per folder: two deploys racing into one folder each plan from the state
// before the other's copies and both succeed, leaving pages of one version beside assets of the
// other. A deploy that writes therefore first holds `.preencode-deploy.lock` at the folder's root
// (core's `acquireFolderLock`, the lock `compress` takes on a site too): a second deploy is
// refused with one line naming the holder; a lock whose holder is gone is taken over with a note.
import { randomBytes } from 'node:crypto'
import { mkdir, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { acquireFolderLock as acquireLock, type FolderLock } from '@preencode/core/internal'
import { LOCK_FILENAME } from '../plan/state.js'

export type { FolderLock } from '@preencode/core/internal'
/** Prefix of every temporary file the folder targets write; a killed deploy's leftovers are recognised by it. */
export const TEMP_MARK = '.preencode-tmp-'
/** A temporary name of ours: the mark and 12 hex digits, nothing else. */
export const TEMP_NAME = /^\.preencode-tmp-[0-9a-f]{12}$/

/** A fresh temporary name in `dir`. */
export function tempName(dir: string): string {
  return join(dir, `${TEMP_MARK}${randomBytes(6).toString('hex')}`)
}

/**
 * Takes the lock of `dir` (which must exist) for this process, or fails naming the holder.
 * `description` names the target in messages; `note` reports a stale lock taken over.
 */
export function acquireFolderLock(
  dir: string,
  deployId: string,
  description: string,
  note: (message: string) => void,
): Promise<FolderLock> {
  return acquireLock(dir, {
    file: LOCK_FILENAME,
    holderName: 'deploy',
    description,
    component: 'deploy',
    code: 'TARGET_FAILED',
    id: deployId,
    note,
    tempName,
  })
}

/**
 * Creates `dir` and its missing parents one level at a time (what `rsync --mkpath` would do).
 * Node's recursive mkdir never returns for a path under /proc; this fails at the first level.
 */
export async function makeFolders(dir: string): Promise<void> {
  const missing: string[] = []
  for (let current = dir; !(await stat(current).catch(() => undefined)); current = dirname(current)) {
    if (dirname(current) === current) break
    missing.unshift(current)
  }
  for (const path of missing) {
    await mkdir(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    })
  }
}
