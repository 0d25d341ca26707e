/**
 * The lock every run that writes into a site takes (`compress` from the CLI or a plugin's build
 * runner, `writeDeltas`, deploy's recompression): two runs on one folder at once deleted each
 * other's temporary files and crashed (issue 29 item 3). A second process is refused with one
 * line naming the holder; nested calls in one run (the build runner, then `compressDirectory`)
 * take it once.
 */
import { realpath, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { isPreencodeError, userError } from '../errors.js'
import { withFolderLock } from './folder-lock.js'
import { unwritable } from './write.js'

/** The site's lock file, at its root while a run writes there; never compressed nor listed. */
export const SITE_LOCK_FILENAME = '.preencode-compress.lock'

/**
 * Runs `fn` holding the lock of the site at `dir`. A missing folder is left to `fn` to report.
 * `note` hears of a stale lock taken over (a killed run's). A lock that cannot be written (a
 * read-only or full folder) fails as `compress` says it, or, with `rawErrors`, with the file
 * system's own error (deploy then skips its deltas with a warning and deploys the site as built).
 */
export async function withSiteLock<T>(
  dir: string,
  note: (message: string) => void,
  fn: () => Promise<T>,
  rawErrors = false,
): Promise<T> {
  const root = await realpath(resolve(dir)).catch(() => undefined)
  // A missing folder, or a file in its place: `fn` says so as it always did.
  if (root === undefined || !(await stat(root)).isDirectory()) return await fn()
  const options = {
    file: SITE_LOCK_FILENAME,
    holderName: 'compress run',
    description: root,
    component: 'core',
    code: 'BAD_INPUT',
    note,
  } as const
  let locked = false
  try {
    return await withFolderLock(root, options, () => {
      locked = true
      return fn()
    })
  } catch (error) {
    if (locked || rawErrors || isPreencodeError(error)) throw error
    // The lock could not be written: a read-only or full folder, said as `compress` says it.
    const mapped = unwritable(root, error)
    if (mapped !== error) throw mapped
    throw userError('core', `Cannot lock ${root} for writing: ${(error as Error).message}`, {
      cause: error,
      code: 'BAD_INPUT',
    })
  }
}
