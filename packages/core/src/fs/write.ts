import { randomBytes } from 'node:crypto'
import { open, rename, rm, unlink, utimes } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { userError } from '../errors.js'
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
 * the complete new one: write a temp file, set its mode (when given) and mtime, rename it over `path`.
 * `mtime` (ms since the epoch) should be the original's: nginx `gzip_static` serves the sidecar's
 * mtime as Last-Modified and builds the ETag from it.
 */
export async function writeFileAtomically(
  path: string,
  bytes: Uint8Array | string,
  mtimeMs?: number,
  mode?: number,
): Promise<void> {
  const temp = tempPathFor(path)
  try {
    await withOpenFiles(1, async () => {
      const handle = await open(temp, 'wx', 0o644)
      try {
        // No fsync: rename-after-complete-write is already atomic against a killed process, which
        // is the failure a build sees; an fsync per variant would cost seconds on large sites.
        await handle.writeFile(bytes)
        // Exactly this mode (the umask applies to `open`'s): a variant has its original's.
        if (mode !== undefined) await handle.chmod(mode)
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

/**
 * The mode a variant (`app.js.br`) or a delta (`.dcb`, `.dcz`) of a file is written with: the
 * original's read and write bits, never an execute bit (nor setuid, setgid, sticky). A private
 * original (0600) gets private variants; an executable one (0755) variants that are not.
 */
export function variantModeOf(originalMode: number): number {
  return originalMode & 0o666
}

/** A variant (`app.js.br`) written atomically with its original's mtime and mode. */
export async function writeVariantAtomically(
  path: string,
  bytes: Uint8Array,
  mtimeMs: number,
  mode: number,
): Promise<void> {
  await writeFileAtomically(path, bytes, mtimeMs, mode).catch((cause: unknown) => {
    throw unwritable(path, cause)
  })
}

/**
 * Fails, before anything is written, when `dir` cannot take new files (permissions, a
 * read-only mount): creates and removes one temp file there (named so that a run killed in
 * between leaves a file the next run removes).
 */
export async function assertWritableDirectory(dir: string): Promise<void> {
  const probe = tempPathFor(join(dir, '.preencode-write-check'))
  try {
    await withOpenFiles(1, async () => (await open(probe, 'wx', 0o644)).close())
  } catch (cause) {
    throw unwritable(dir, cause)
  }
  await rm(probe, { force: true })
}

/** A write failure the user can act on (permissions, read-only, full disk) as a one-line error naming the path. */
export function unwritable(path: string, cause: unknown): Error {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code
  const why: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the file system is read-only',
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is exhausted',
  }
  if (code === undefined || !(code in why)) return cause instanceof Error ? cause : new Error(String(cause))
  return userError(
    'core',
    `Cannot write to ${path}: ${why[code]} (${code}). preencode writes its variants and manifest beside the site's files; make the folder writable, or compress a writable copy.`,
    { cause, code: 'BAD_INPUT' },
  )
}

/**
 * Deletes every path in `candidates` (relative to `dir`) that is not in `keep`. Used for stale
 * sidecars: variants whose original changed and no longer qualifies, whose original was deleted,
 * or whose format is no longer requested. Returns the removed paths.
 */
export async function removeStaleVariants(
  dir: string,
  candidates: Iterable<string>,
  keep: ReadonlySet<string>,
): Promise<string[]> {
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
 * Deletes temp files of an interrupted run. The caller holds the site's lock (`site-lock.ts`),
 * so no other run is writing temp files there.
 */
export async function cleanTempFiles(dir: string, paths: Iterable<string>): Promise<number> {
  let count = 0
  for (const path of paths) {
    await rm(join(dir, path), { force: true })
    count++
  }
  return count
}
