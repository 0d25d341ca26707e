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
 */
import { constants } from 'node:fs'
import { type FileHandle, open, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'

/** Read only, and never through a link put in place of the checked path since (ELOOP). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)

/** A site folder whose files are opened only from inside it. */
export interface SiteRoot {
  /** The folder as given. */
  readonly dir: string
  /**
   * Opens `path` (relative to the root) for reading; undefined when it leads out of the site.
   * Rejects with the error of `open` (ENOENT when there is no such file).
   */
  open(path: string): Promise<FileHandle | undefined>
  /** Size and modification time of a regular file of the site; undefined when absent or outside. */
  fileInfo(path: string): Promise<{ size: number; mtimeMs: number } | undefined>
}

/** True when the absolute `child` is `parent` or lies below it. */
function isWithin(child: string, parent: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

export function siteRoot(dir: string): SiteRoot {
  let real: Promise<string> | undefined
  const realRoot = (again: boolean): Promise<string> => {
    if (again || !real) real = realpath(dir).catch(() => dir)
    return real
  }
  /** The real path of `path` when it lies inside the real root (resolved again once if not). */
  const inside = async (path: string): Promise<string | undefined> => {
    const resolved = await realpath(path).catch(() => undefined)
    if (resolved === undefined) return undefined
    if (isWithin(resolved, await realRoot(false))) return resolved
    return isWithin(resolved, await realRoot(true)) ? resolved : undefined
  }
  return {
    dir,
    async open(path) {
      const resolved = await inside(join(dir, path))
      if (resolved === undefined) {
        // No such file (a rebuild removed it): the caller's ENOENT; else a link out of the site.
        await stat(join(dir, path))
        return undefined
      }
      return open(resolved, OPEN_FLAGS)
    },
    async fileInfo(path) {
      const resolved = await inside(join(dir, path))
      const info = resolved === undefined ? undefined : await stat(resolved).catch(() => undefined)
      return info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : undefined
    },
  }
}
