/**
 * Late files: a file that goes away or changes while a run reads and encodes it belongs to a
 * tool still writing the folder (Storybook copies its static folders while Vite builds). The run
 * skips it rather than fail a build over a file preencode did not write (issue 34 item 2).
 */
import { stat } from 'node:fs/promises'
import { type PreencodeError, userError } from '../errors.js'

/** What a late-file check needs of a job: its source and the stat it was planned with. */
export interface StatedSource {
  sourcePath: string
  size: number
  mtimeMs: number
  ctimeMs: number
}

/** Whether the job's source still has the size, mtime and ctime it was planned with. */
export async function holdsStill(job: StatedSource): Promise<boolean> {
  const info = await stat(job.sourcePath).catch(() => undefined)
  return info?.size === job.size && info.mtimeMs === job.mtimeMs && info.ctimeMs === job.ctimeMs
}

/** The file went away (or a folder on its path did) since the scan listed it. */
export function isGone(cause: unknown): boolean {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/** A file that exists but cannot be read: the user's to fix, named. */
export function unreadable(path: string, cause: unknown): PreencodeError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? String(cause))
  return userError('core', `Cannot read ${path}: ${why}.`, { cause, code: 'BAD_INPUT' })
}
