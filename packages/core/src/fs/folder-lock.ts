/**
 * One writer at a time per folder, for every run that writes into one: `compress` (its variants,
 * deltas and manifest in the site) and `deploy` (its copies in a target folder). Two runs racing
 * in one folder each delete the other's temporary files and plan from a state the other is
 * changing (issue 29 item 3: an ENOENT from the delta writer, `.tmp-*` files left behind).
 *
 * The lock is a file at the folder's root, made complete under a temporary name and then
 * hard-linked to the lock name (`link(2)` fails if the name exists, so exactly one run gets it),
 * removed when the run ends. Another process is refused with one line naming the holder. A lock
 * whose holder is gone (same host, and the pid no longer runs, is a zombie not yet reaped, runs
 * another program since, or is this very process, which does not hold it: a container restarts with the same pid), or that is
 * empty or unreadable (no run writes a lock that way) is stale: it is taken over with a note, so a
 * run killed with SIGKILL never blocks the next one. Within one process, a second taker waits for
 * the first to release (two build runners on one folder queue), and `withFolderLock` nested in
 * the same async call chain does not lock twice.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { type ErrorComponent, type PreencodeErrorCode, userError } from '../errors.js'
import { tempPathFor } from './write.js'

/** Who holds a folder's lock, as its file records it. */
interface LockHolder {
  pid: number
  host: string
  /** When it was taken, ms since the epoch. */
  time: number
  /** The run's id (a deploy id), when it has one. */
  id?: string | undefined
  /** The process's start time in clock ticks since boot (Linux `/proc/<pid>/stat`), to tell a reused pid. */
  start?: string | undefined
}

export interface FolderLock {
  readonly holder: LockHolder
  /** Removes the lock if it is still this run's; idempotent. */
  release(): Promise<void>
}

export interface FolderLockOptions {
  /** The lock's file name at the folder's root (`.preencode-deploy.lock`). */
  file: string
  /** What holds such a lock, in messages (`deploy`, `compress run`). */
  holderName: string
  /** Names the folder in messages (`local folder /srv/www`). */
  description: string
  /** The component and code of the refusal. */
  component: ErrorComponent
  code?: Exclude<PreencodeErrorCode, 'INTERNAL'> | undefined
  /** The run's id, recorded in the lock. */
  id?: string | undefined
  /** Reports a stale lock taken over. */
  note(message: string): void
  /** A fresh temporary name in `dir` for the lock being made. @default `tempPathFor(lock)`, which `compress` cleans up */
  tempName?: ((dir: string) => string) | undefined
}

/** Locks this process holds, by path: resolves when released. */
const heldHere = new Map<string, Promise<void>>()
/** The locks the current async call chain holds (`withFolderLock`). */
const chain = new AsyncLocalStorage<ReadonlySet<string>>()

/** Retries while a lock is found missing or empty (released, or being written where there are no hard links). */
const RETRIES = 5
const RETRY_MS = 50

/** Takes the lock of `dir` (which must exist) for this process, or fails naming the holder. */
export async function acquireFolderLock(dir: string, options: FolderLockOptions): Promise<FolderLock> {
  const path = join(dir, options.file)
  for (let waiting = heldHere.get(path); waiting; waiting = heldHere.get(path)) await waiting
  let done!: () => void
  heldHere.set(
    path,
    new Promise<void>((resolve) => {
      done = resolve
    }),
  )
  let holder: LockHolder
  let text: string
  try {
    holder = {
      pid: process.pid,
      host: hostname(),
      time: Date.now(),
      id: options.id,
      start: await processStart(process.pid),
    }
    text = `${JSON.stringify(holder)}\n`
    await takeLock(dir, path, text, options)
  } catch (error) {
    heldHere.delete(path)
    done()
    throw error
  }
  let released = false
  return {
    holder,
    async release() {
      if (released) return
      released = true
      try {
        // Only our own lock: never remove one a later run took over.
        const current = await readFile(path, 'utf8').catch(() => undefined)
        if (current === text) await rm(path, { force: true })
      } finally {
        heldHere.delete(path)
        done()
      }
    },
  }
}

/** Runs `fn` holding the lock of `dir`; a call nested in another's `fn` for the same lock runs at once. */
export async function withFolderLock<T>(dir: string, options: FolderLockOptions, fn: () => Promise<T>): Promise<T> {
  const path = join(dir, options.file)
  const held = chain.getStore()
  if (held?.has(path)) return await fn()
  const lock = await acquireFolderLock(dir, options)
  try {
    return await chain.run(new Set([...(held ?? []), path]), fn)
  } finally {
    await lock.release()
  }
}

async function takeLock(dir: string, path: string, text: string, options: FolderLockOptions): Promise<void> {
  const temp = options.tempName ?? (() => tempPathFor(path))
  let tookOver = false
  for (let attempt = 0; ; attempt++) {
    if (await linkExclusive(dir, path, text, temp)) return
    const found = await readFile(path, 'utf8').catch(() => undefined)
    if ((found === undefined || found === '') && attempt < RETRIES) {
      await sleep(RETRY_MS)
      continue
    }
    const other = found === undefined ? undefined : parseHolder(found)
    const why = found === undefined ? undefined : other === undefined ? 'unreadable' : await staleness(other)
    if (!tookOver && found !== undefined && why !== undefined) {
      tookOver = true
      if (await claim(path, found, temp(dir)))
        options.note(
          why === 'unreadable'
            ? `${options.description}: took over a lock that was ${found.trim() === '' ? 'empty' : 'not a readable lock'} (${path}); no ${options.holderName} writes one that way.`
            : `${options.description}: took over the lock of a ${options.holderName} that is no longer running (${describeHolder(other!)}).`,
        )
      continue
    }
    const by = other ? ` (${describeHolder(other)})` : found === undefined ? ' (its lock cannot be read)' : ''
    throw userError(
      options.component,
      `${options.description} is locked by another ${options.holderName}${by}; wait for it to finish, or, if no ${options.holderName} is running, delete ${path}.`,
      { code: options.code ?? 'BAD_INPUT' },
    )
  }
}

/**
 * Writes `text` to a temporary file and links it to `path`; false when `path` exists (or the
 * temporary file was removed meanwhile: the folder's holder cleans up temporary files). Where the
 * file system has no hard links (FAT, some network mounts) the lock is created with O_EXCL and
 * then written: a reader may briefly find it empty, and waits.
 */
async function linkExclusive(
  dir: string,
  path: string,
  text: string,
  tempName: (dir: string) => string,
): Promise<boolean> {
  const temp = tempName(dir)
  await writeFile(temp, text)
  try {
    await link(temp, path)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST' || code === 'ENOENT') return false
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
 * Removes the stale lock whose text was `found`, unless another run took it over meanwhile: the
 * lock is first renamed away (atomic: of two runs, one gets it), then checked; a lock that turns
 * out to be live is put back.
 */
async function claim(path: string, found: string, aside: string): Promise<boolean> {
  try {
    await rename(path, aside)
  } catch {
    return false
  }
  const text = await readFile(aside, 'utf8').catch(() => undefined)
  if (text !== found) await link(aside, path).catch(() => {})
  await rm(aside, { force: true })
  return text === found
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder> | null
    if (typeof value !== 'object' || value === null) return undefined
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return undefined
    if (typeof value.host !== 'string' || typeof value.time !== 'number') return undefined
    return value as LockHolder
  } catch {
    return undefined
  }
}

function describeHolder(holder: LockHolder): string {
  const when = Number.isFinite(holder.time) ? new Date(holder.time).toISOString() : 'an unknown time'
  return `pid ${holder.pid} on host ${holder.host}, since ${when}`
}

/**
 * 'gone' when the holder certainly no longer runs: written on this host, and its pid is gone, is
 * a zombie (`/proc/<pid>/stat` state Z: killed, not yet reaped), belongs to a process started
 * at another time, or is this process (which does not hold it, see `heldHere`). A lock from
 * another host (a shared volume) is never taken over: its pid means nothing here.
 */
async function staleness(holder: LockHolder): Promise<'gone' | undefined> {
  if (holder.host !== hostname()) return undefined
  if (holder.pid === process.pid) return 'gone'
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'gone' : undefined
  }
  const fields = await procStat(holder.pid)
  // A zombie (killed with its parent, never reaped where PID 1 does not reap: CI containers) runs no more.
  if (fields?.[0] === 'Z' || fields?.[0] === 'X') return 'gone'
  const start = fields?.[19]
  return holder.start !== undefined && start !== undefined && start !== holder.start ? 'gone' : undefined
}

/** The start time (field 22 of `/proc/<pid>/stat`, clock ticks since boot); undefined where there is no /proc. */
async function processStart(pid: number): Promise<string | undefined> {
  return (await procStat(pid))?.[19]
}

/** The fields of `/proc/<pid>/stat` from the state (field 3) on; undefined where there is no /proc. */
async function procStat(pid: number): Promise<string[] | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')
}
