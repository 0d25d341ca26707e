// Removing deltas a previous run wrote and this one did not: only files an earlier manifest (or
// a killed run's journal) records as preencode's, then the `.dict` folders left empty.
import { readdir, rmdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { Manifest } from '../manifest/manifest.js'
import { isSafeRelativePath } from '../paths.js'
import { DELTA_DIRECTORY_SUFFIX, originalOfDeltaPath } from './delta-paths.js'

/**
 * Deletes the deltas the given manifest recorded that this run did not write, and `journaled`
 * ones (a killed run's, `journal.ts`) it did not write again (only files preencode wrote are
 * ever deleted), then every `.dict` folder left empty.
 */
export async function removeStaleDeltas(
  root: string,
  manifest: Manifest,
  keep: ReadonlySet<string>,
  journaled: readonly string[] = [],
): Promise<number> {
  let removed = 0
  for (const path of [...manifest.files.flatMap((f) => (f.deltas ?? []).map((d) => d.path)), ...journaled]) {
    if (keep.has(path) || originalOfDeltaPath(path) === undefined || !isSafeRelativePath(path)) continue
    await unlink(join(root, path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
    removed++
  }
  for (const file of manifest.files)
    if (isSafeRelativePath(file.path)) await removeEmptyDirectories(join(root, `${file.path}${DELTA_DIRECTORY_SUFFIX}`))
  return removed
}

/** After deltas at `paths` were removed (by a compress run): their `.dict` folders left empty go too. */
export async function removeEmptyDeltaFolders(root: string, paths: readonly string[]): Promise<void> {
  const originals = new Set(paths.map(originalOfDeltaPath).filter((o): o is string => o !== undefined))
  for (const original of originals)
    if (isSafeRelativePath(original)) await removeEmptyDirectories(join(root, `${original}${DELTA_DIRECTORY_SUFFIX}`))
}

/** Removes `dir` and its subfolders bottom-up where they are empty; stops at anything else. */
async function removeEmptyDirectories(dir: string): Promise<boolean> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return false
  }
  let empty = true
  for (const entry of entries) {
    if (!entry.isDirectory() || !(await removeEmptyDirectories(join(dir, entry.name)))) empty = false
  }
  if (!empty) return false
  await rmdir(dir).catch(() => {})
  return true
}
