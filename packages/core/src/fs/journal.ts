/**
 * The journal of a run in progress: before preencode puts a file under a final name (a variant,
 * a delta), it appends the name and the sha256 of the bytes to `<root>/.preencode-journal`, and
 * once the manifest that records them is written the journal is removed. A run killed in between
 * leaves files no manifest names; the journal says they are preencode's, so the next run reuses,
 * rewrites or removes them instead of taking them for the user's (a `.br` "in the way", a delta
 * adopted as an original). Only a file still holding exactly the journaled bytes counts: a file
 * the user put there since is theirs.
 *
 * Format: one JSON object per line, `{"path":"a/b.js.br","sha256":"<hex>"}`; a torn last line
 * (killed mid-append) is ignored.
 *
 * The journal is opened without following a symlink (preencode never writes through one: a
 * `.preencode-journal -> /elsewhere` link would append outside the site) and without blocking (a
 * FIFO in its place would wait forever for a reader), and must be a regular file. Every failure to
 * write it (a symlink, a folder, a FIFO, permissions, a full disk) is one line naming the file.
 */
import { constants } from 'node:fs'
import { type FileHandle, open, readFile, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { isPreencodeError, userError } from '../errors.js'
import { sha256Hex } from '../hash.js'
import { isSafeRelativePath } from '../paths.js'
import { withOpenFiles } from './open-files.js'
import { unwritable } from './write.js'

const { O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = constants

export const JOURNAL_FILENAME = '.preencode-journal'

export interface RunJournal {
  /** Records that `path` (relative, POSIX) is about to hold `bytes`; resolves once appended. */
  record(path: string, bytes: Uint8Array | string): Promise<void>
  /** Closes the journal and removes it: the manifest now records (or no longer needs) every entry. */
  finish(): Promise<void>
  /** Closes the journal and keeps it (the run failed: the next one reads it). */
  close(): Promise<void>
}

/** Opens the journal of `root` for appending, on the first `record` only (a run writing nothing leaves no file). */
export function openJournal(root: string): RunJournal {
  const path = join(root, JOURNAL_FILENAME)
  let handle: Promise<FileHandle> | undefined
  const close = async (): Promise<void> => {
    const opened = handle
    handle = undefined
    if (opened) await (await opened.catch(() => undefined))?.close().catch(() => {})
  }
  return {
    async record(file, bytes) {
      handle ??= openForAppend(path)
      const line = `${JSON.stringify({ path: file, sha256: sha256Hex(bytes) })}\n`
      // O_APPEND: each line lands whole at the end, whatever other jobs append meanwhile.
      await (await handle).write(line).catch((cause: unknown) => {
        throw journalError(path, cause)
      })
    },
    async finish() {
      await close()
      await unlink(path).catch((cause: NodeJS.ErrnoException) => {
        if (cause.code !== 'ENOENT') throw journalError(path, cause)
      })
    },
    close,
  }
}

/** Opens the journal for appending: never through a symlink, never blocking, only a regular file. */
async function openForAppend(path: string): Promise<FileHandle> {
  const handle = await open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o644).catch(
    (cause: unknown) => {
      throw journalError(path, cause)
    },
  )
  if ((await handle.stat()).isFile()) return handle
  await handle.close()
  throw journalError(path, Object.assign(new Error('not a regular file'), { code: 'ENOTREG' }))
}

/** Why the journal cannot be written: what to remove or fix, in one line naming the file. */
const NOT_A_FILE: Record<string, string> = {
  ELOOP: 'it is a symlink, and preencode never writes through symlinks',
  EISDIR: 'it is a folder',
  ENXIO: 'it is a FIFO or a socket',
  ENOTREG: 'it is not a regular file (a FIFO, socket or device)',
}

/** A failure to write the journal at `path` as a one-line error naming it. */
function journalError(path: string, cause: unknown): Error {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? ''
  if (code in NOT_A_FILE)
    return userError(
      'core',
      `Cannot write the journal ${path}: ${NOT_A_FILE[code]} (${code}). preencode keeps the journal of a run there; remove it and run again.`,
      { cause, code: 'BAD_INPUT' },
    )
  const known = unwritable(path, cause)
  if (isPreencodeError(known)) return known
  return userError('core', `Cannot write the journal ${path}: ${(cause as Error)?.message ?? String(cause)}`, {
    cause,
    code: 'BAD_INPUT',
  })
}

/** The journal's text; undefined when there is none, or something else than a regular file is in its place. */
async function readJournal(path: string): Promise<string | undefined> {
  const handle = await open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK).catch(() => undefined)
  if (!handle) return undefined
  try {
    return (await handle.stat()).isFile() ? await handle.readFile('utf8') : undefined
  } catch {
    return undefined
  } finally {
    await handle.close()
  }
}

/**
 * The files a killed run journaled that still hold the journaled bytes: preencode's own, though
 * no manifest names them. Paths relative to `root`, sorted; `onDisk` (the walk's files) limits
 * them to files inside the site.
 */
export async function journaledFiles(root: string, onDisk?: ReadonlySet<string>): Promise<string[]> {
  const text = await readJournal(join(root, JOURNAL_FILENAME))
  if (text === undefined) return []
  const expected = new Map<string, Set<string>>()
  for (const line of text.split('\n')) {
    let entry: { path?: unknown; sha256?: unknown }
    try {
      entry = JSON.parse(line) as typeof entry
    } catch {
      continue
    }
    if (typeof entry.path !== 'string' || typeof entry.sha256 !== 'string' || !isSafeRelativePath(entry.path)) continue
    if (onDisk && !onDisk.has(entry.path)) continue
    // A path rewritten within one run has several lines: any of its journaled contents is ours.
    expected.set(entry.path, (expected.get(entry.path) ?? new Set()).add(entry.sha256))
  }
  const owned: string[] = []
  for (const [path, hashes] of expected) {
    const bytes = await withOpenFiles(1, () => readFile(join(root, path))).catch(() => undefined)
    if (bytes && hashes.has(sha256Hex(bytes))) owned.push(path)
  }
  return owned.sort()
}
