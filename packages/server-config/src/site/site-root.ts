/**
 * Only the site's own files, by construction (issue 35): every file the Node middleware and the
 * Fetch handler open or describe — from the URL or from the manifest — is checked to lie inside
 * the site's real root, where it is opened, not by a string prefix.
 *
 * A path's real location (`realpath`: every link on the way resolved) must lie inside the root's,
 * and the file is then opened by that real path with `O_NOFOLLOW`: a link put in its place after
 * the check is not followed (ELOOP), and a file replaced by a rebuild (a rename) is simply the
 * new file. So a symlink that stays inside the site is served (as `compress` compresses it:
 * `latest.js -> app-3f2a.js`), and one that leads out of it — a file, a folder, `../sibling`, `/`
 * — is not a file of the site. (The folders on the way are real when checked; only a process
 * that may write into the site could swap one for a link in between, and it could as well copy
 * any file in.)
 *
 * The root's real path is resolved once, and again when a file seems to lie outside it: a
 * release swap (`current -> releases/2`) moves the root, and the next request follows it.
 *
 * A path found inside is remembered with the version of the file it led to (device, inode,
 * size, mtime, ctime: `file-access.ts`). Each request `stat`s the path (following links, opening
 * nothing, so a link to a FIFO or a device is never opened); while it shows that version, the
 * path is not resolved again, and the file opened by the real path must be that version too.
 * The same inode, unchanged (a rename, a link, a write or a chmod changes its ctime), is the file
 * that was checked inside the site; anything else — a link put in place of the file or of a
 * folder on the way, a rebuild — is another version, checked again in full. On Bun the file is
 * described by that `stat` and opened only when read (`file-access.ts`).
 */
import { constants, type Stats } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import {
  FILE_ACCESS,
  type FileAccess,
  type OpenedFile,
  sameVersion,
  statThisTurn,
  type Version,
} from './file-access.js'
import { isOutOfHandles } from './handles.js'

/** Read only, and never through a link put in place of the checked path since (ELOOP). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)

/** Paths remembered as checked inside the site: one per file served, the oldest forgotten first. */
const MAX_CHECKED = 16_384

/** A path checked inside the site: its real path, and the version of the file it led to. */
interface Checked {
  /** The path joined to the root, as asked. */
  full: string
  real: string
  version: Version
}

/** A file of the site opened for reading, and what `fstat` tells of it. */
export interface OpenedSiteFile {
  file: OpenedFile
  info: Stats
}

/** A site folder whose files are opened only from inside it. */
export interface SiteRoot {
  /** The folder as given. */
  readonly dir: string
  /**
   * Opens `path` (relative to the root) for reading; undefined when it leads out of the site.
   * Rejects with the error of `open` (ENOENT when there is no such file).
   */
  open(path: string): Promise<OpenedSiteFile | undefined>
  /** Size and modification time of a regular file of the site; undefined when absent or outside. */
  fileInfo(path: string): Promise<{ size: number; mtimeMs: number } | undefined>
}

/** True when the absolute `child` is `parent` or lies below it. */
function isWithin(child: string, parent: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

/** `call`'s value, or undefined when it fails (synchronously or not). */
async function orUndefined<T>(call: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await call()
  } catch {
    return undefined
  }
}

export function siteRoot(dir: string): SiteRoot {
  const fs = FILE_ACCESS
  let real: string | undefined
  const realRoot = async (again: boolean): Promise<string> => {
    if (again || real === undefined) real = (await orUndefined(() => fs.realpath(dir))) ?? dir
    return real
  }
  /** The real path of `path` when it lies inside the real root (resolved again once if not). */
  const inside = async (path: string): Promise<string | undefined> => {
    const resolved = await orUndefined(() => fs.realpath(path))
    if (resolved === undefined) return undefined
    if (isWithin(resolved, await realRoot(false))) return resolved
    return isWithin(resolved, await realRoot(true)) ? resolved : undefined
  }
  const checked = new Map<string, Checked>()
  /** The file the path leads to as checked before, opened by its real path; undefined if it is not that file now. */
  const reopen = async (known: Checked, full: string, seen: Stats): Promise<OpenedSiteFile | undefined> => {
    if (!sameVersion(known.version, seen)) return undefined
    // Described (Bun): the very version checked, by the path just stat'ed; read only if still that version.
    if (fs.describe) return { file: fs.describe(full, seen), info: seen }
    try {
      const opened = await openReal(fs, known.real)
      if (sameVersion(opened.info, known.version)) return opened
      await opened.file.close().catch(() => {})
    } catch (error) {
      if (isOutOfHandles(error)) throw error
    }
    return undefined
  }
  return {
    dir,
    async open(path) {
      const known = checked.get(path)
      const full = known?.full ?? join(dir, path)
      // Follows links (no open: a link to a FIFO or a device is never opened); ENOENT when there is no such file.
      const seen = await statThisTurn(full)
      const again = known && (await reopen(known, full, seen))
      if (again) return again
      const resolved = await inside(full)
      if (resolved === undefined) {
        // Removed since (a rebuild): the caller's ENOENT; else a link out of the site.
        await fs.stat(full)
        return undefined
      }
      const opened = await openReal(fs, resolved)
      checked.delete(path)
      if (checked.size >= MAX_CHECKED) checked.delete(checked.keys().next().value as string)
      checked.set(path, { full, real: resolved, version: opened.info })
      return opened
    },
    async fileInfo(path) {
      const resolved = await inside(join(dir, path))
      const info = resolved === undefined ? undefined : await orUndefined(() => fs.stat(resolved))
      return info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : undefined
    },
  }
}

/** Opens a real path with `OPEN_FLAGS` and describes the file opened (on Bun: describes it, `file-access.ts`). */
async function openReal(fs: FileAccess, real: string): Promise<OpenedSiteFile> {
  if (fs.describe) {
    const info = await fs.stat(real)
    return { file: fs.describe(real, info), info }
  }
  const file = await fs.open(real, OPEN_FLAGS)
  try {
    return { file, info: await file.stat() }
  } catch (error) {
    await file.close().catch(() => {})
    throw error
  }
}
