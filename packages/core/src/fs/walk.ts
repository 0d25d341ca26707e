import { readdir, realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isInsideDirectory } from '../paths.js'

/** A directory entry the walk did not list, and why; the caller decides whether to warn. */
export interface SkippedEntry {
  /** POSIX path relative to the root. */
  path: string
  reason: 'symlink-outside' | 'symlink-dangling' | 'symlink-directory' | 'not-a-file'
  /** Where a symlink points (absolute, resolved), when it resolves. */
  target?: string
}

export interface WalkResult {
  /** Regular files, and symlinks to regular files inside the root: POSIX paths, unsorted. */
  files: string[]
  /** Symlinks and special files left out. */
  skipped: SkippedEntry[]
}

/**
 * Directories listed at once. `readdir` opens, reads and closes a directory inside one libuv
 * threadpool job, so this is also the walk's bound on open file handles.
 */
const WALK_CONCURRENCY = 4

/**
 * Lists every file under `root` (which must be a real path: pass it through `realpath` first).
 * Symlinks are never walked through: a symlink to a file inside the root is listed (reading it
 * reads the target; a variant written beside it is a new file inside the root); a symlink that
 * leads out of the root, dangles, or names a directory is skipped and reported, so nothing is
 * ever read from or written into a folder outside the site. Directories in `skip` (absolute)
 * are not entered.
 */
export async function walkDirectory(root: string, skip: readonly string[] = []): Promise<WalkResult> {
  const files: string[] = []
  const skipped: SkippedEntry[] = []
  const pending: string[] = ['']
  const skipSet = new Set(skip)

  const visit = async (relDir: string): Promise<void> => {
    // A folder another tool removed since its parent was listed holds nothing to compress now.
    const entries = await readdir(join(root, relDir), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (relDir !== '' && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return []
      throw error
    })
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`
      if (entry.isDirectory()) {
        if (!skipSet.has(join(root, rel))) pending.push(rel)
      } else if (entry.isFile()) {
        files.push(rel)
      } else if (entry.isSymbolicLink()) {
        const verdict = await classifySymlink(root, rel)
        if (verdict === 'file') files.push(rel)
        else skipped.push(verdict)
      } else {
        skipped.push({ path: rel, reason: 'not-a-file' })
      }
    }
  }

  // A small fixed set of workers drains a shared queue that visits keep filling.
  let active = 0
  let failure: unknown
  await new Promise<void>((resolve) => {
    const pump = (): void => {
      while (failure === undefined && active < WALK_CONCURRENCY && pending.length > 0) {
        const dir = pending.pop()!
        active++
        visit(dir).then(
          () => {
            active--
            pump()
          },
          (error: unknown) => {
            active--
            failure ??= error
            pump()
          },
        )
      }
      if (active === 0 && (pending.length === 0 || failure !== undefined)) resolve()
    }
    pump()
  })
  if (failure !== undefined) throw failure
  return { files, skipped }
}

async function classifySymlink(root: string, rel: string): Promise<'file' | SkippedEntry> {
  let target: string
  try {
    target = await realpath(join(root, rel))
  } catch {
    return { path: rel, reason: 'symlink-dangling' }
  }
  if (!isInsideDirectory(target, root)) return { path: rel, reason: 'symlink-outside', target }
  const info = await stat(target).catch(() => undefined)
  if (info?.isFile()) return 'file'
  // A directory link inside the root: its files are listed (and compressed) under their real
  // path, and a server following the link finds the variants there.
  return { path: rel, reason: info?.isDirectory() ? 'symlink-directory' : 'not-a-file', target }
}
