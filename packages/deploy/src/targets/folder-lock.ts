// One deploy at a time per folder. Two deploys racing into one folder each plan from the state
// before the other's copies and both succeed, leaving pages of one version beside assets of the
// other. A deploy that writes therefore first holds `.preencode-deploy.lock` at the folder's
// root: made complete under a temporary name, then hard-linked to the lock name (`link(2)` fails
// if the name exists, so exactly one deploy gets it), removed when the deploy ends. A second
// deploy is refused with one line naming the holder. A lock whose holder is gone (same host, the
// pid no longer runs, or runs another program since) is stale: it is taken over with a note, so
// a deploy killed with SIGKILL never blocks the next one.
import { randomBytes } from 'node:crypto'
import { link, mkdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { dirname, join } from 'node:path'
import { userError } from '@preencode/core'
import { LOCK_FILENAME } from '../plan/state.js'
/** Prefix of every temporary file the folder targets write; a killed deploy's leftovers are recognised by it. */
export const TEMP_MARK = '.preencode-tmp-'
/** A temporary name of ours: the mark and 12 hex digits, nothing else. */
export const TEMP_NAME = /^\.preencode-tmp-[0-9a-f]{12}$/

/** Who holds a folder's lock. */
export interface LockHolder {
  pid: number
  host: string
  /** When it was taken, ms since the epoch. */
  time: number
  deployId: string
  /** The process's start time in clock ticks since boot (Linux `/proc/<pid>/stat`), to tell a reused pid. */
  start?: string | undefined
}

export interface FolderLock {
  readonly holder: LockHolder
  release(): Promise<void>
}

/** A fresh temporary name in `dir`. */
export function tempName(dir: string): string {
  return join(dir, `${TEMP_MARK}${randomBytes(6).toString('hex')}`)
}

/**
 * Takes the lock of `dir` (which must exist) for this process, or fails naming the holder.
 * `description` names the target in messages; `note` reports a stale lock taken over.
 */
export async function acquireFolderLock(
  dir: string,
  deployId: string,
  description: string,
  note: (message: string) => void,
): Promise<FolderLock> {
  const path = join(dir, LOCK_FILENAME)
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    time: Date.now(),
    deployId,
    start: await processStart(process.pid),
  }
  const text = `${JSON.stringify(holder)}\n`
  let tookOver = false
  for (let attempt = 0; ; attempt++) {
    if (await linkExclusive(dir, path, text)) break
    const found = await readFile(path, 'utf8').catch(() => undefined)
    // Released between our link and our read, or being written (no hard links): try again a
    // few times; a lock that stays unreadable or empty is refused below.
    if ((found === undefined || found === '') && attempt < 5) {
      await sleep(50)
      continue
    }
    const other = parseHolder(found ?? '')
    if (!tookOver && (await isStale(other))) {
      tookOver = true
      // Remove it only if it is still the stale one we read (another deploy may have taken it over).
      if (found !== undefined && (await readFile(path, 'utf8').catch(() => undefined)) === found)
        await unlink(path).catch(() => {})
      note(`${description}: took over the lock of a deploy that is no longer running (${describeHolder(other)}).`)
      continue
    }
    throw userError(
      'deploy',
      `${description} is locked by another deploy (${describeHolder(other)}); wait for it to finish, or, if no deploy is running, delete ${path}.`,
      { code: 'TARGET_FAILED' },
    )
  }
  let released = false
  return {
    holder,
    async release() {
      if (released) return
      released = true
      // Only our own lock: never remove one a later deploy took over.
      const current = await readFile(path, 'utf8').catch(() => undefined)
      if (current === text) await rm(path, { force: true })
    },
  }
}

/**
 * Writes `text` to a temporary file and links it to `path`; false when `path` exists. Where the
 * file system has no hard links (FAT, some network mounts) the lock is created with O_EXCL and
 * then written: a reader may briefly find it empty, and waits.
 */
async function linkExclusive(dir: string, path: string, text: string): Promise<boolean> {
  const temp = tempName(dir)
  await writeFile(temp, text)
  try {
    await link(temp, path)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error
  } finally {
    await rm(temp, { force: true })
  }
  try {
    await writeFile(path, text, { flag: 'wx' })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
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

function parseHolder(text: string): Partial<LockHolder> {
  try {
    const value = JSON.parse(text) as unknown
    return typeof value === 'object' && value !== null ? (value as Partial<LockHolder>) : {}
  } catch {
    return {}
  }
}

function describeHolder(holder: Partial<LockHolder>): string {
  const when = typeof holder.time === 'number' ? new Date(holder.time).toISOString() : 'an unknown time'
  return `pid ${holder.pid ?? '?'} on host ${holder.host ?? '?'}, since ${when}`
}

/**
 * A lock is stale when its holder certainly no longer runs: written on this host, and its pid is
 * gone or belongs to a process started at another time. A lock from another host (a shared
 * volume) is never taken over: its pid means nothing here.
 */
async function isStale(holder: Partial<LockHolder>): Promise<boolean> {
  if (holder.host !== hostname() || typeof holder.pid !== 'number' || !Number.isInteger(holder.pid)) return false
  if (holder.pid === process.pid) return false
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
  const start = await processStart(holder.pid)
  return holder.start !== undefined && start !== undefined && start !== holder.start
}

/** Field 22 of `/proc/<pid>/stat` (the start time); undefined where there is no /proc. */
async function processStart(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')
  return fields?.[19]
}
