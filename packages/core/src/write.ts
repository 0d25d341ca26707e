import { randomBytes } from 'node:crypto'
import { open, rename, rm, unlink, utimes } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { withOpenFiles } from './open-files.js'

/**
 * A temp name in the same directory (rename is atomic only within one file system), hidden, and
 * recognisable by `TEMP_FILE_PATTERN` so the next run can delete what a killed run left.
 */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
}

/**
 * Writes `bytes` to `path` so that `path` is at every moment either absent, the old file, or
 * the complete new one: write a temp file, set its mtime, rename it over `path`.
 * `mtime` (ms since the epoch) should be the original's: nginx `gzip_static` serves the sidecar's
 * mtime as Last-Modified and builds the ETag from it.
 */
export async function writeFileAtomically(path: string, bytes: Uint8Array | string, mtimeMs?: number): Promise<void> {
  const temp = tempPathFor(path)
  try {
    await withOpenFiles(1, async () => {
      const handle = await open(temp, 'wx', 0o644)
      try {
        // No fsync: rename-after-complete-write is already atomic against a killed process, which
        // is the failure a build sees; an fsync per variant would cost seconds on large sites.
        await handle.writeFile(bytes)
      } finally {
        await handle.close()
      }
    })
    if (mtimeMs !== undefined) {
      const seconds = mtimeMs / 1000
      await utimes(temp, seconds, seconds)
    }
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    throw error
  }
}

/** A variant (`app.js.br`) written atomically with its original's mtime. */
export function writeVariantAtomically(path: string, bytes: Uint8Array, mtimeMs: number): Promise<void> {
  return writeFileAtomically(path, bytes, mtimeMs)
}

/**
 * Deletes every path in `candidates` (relative to `dir`) that is not in `keep`. Used for stale
 * sidecars: variants whose original changed and no longer qualifies, whose original was deleted,
 * or whose format is no longer requested. Returns the removed paths.
 */
export async function removeStaleVariants(dir: string, candidates: Iterable<string>, keep: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = []
  for (const path of candidates) {
    if (keep.has(path)) continue
    await unlink(join(dir, path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
    removed.push(path)
  }
  return removed
}

/**
 * Deletes temp files of an interrupted run. A temp file of a live process (another build on the
 * same directory) would be deleted too; two concurrent runs on one directory are not supported.
 */
export async function cleanTempFiles(dir: string, paths: Iterable<string>): Promise<number> {
  let count = 0
  for (const path of paths) {
    await rm(join(dir, path), { force: true })
    count++
  }
  return count
}
