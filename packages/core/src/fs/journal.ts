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
 */
import { createHash } from 'node:crypto'
import { open, readFile, rm, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { withOpenFiles } from './open-files.js'
import { isSafeRelativePath } from '../paths.js'

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
      handle ??= open(path, 'a', 0o644)
      const line = `${JSON.stringify({ path: file, sha256: createHash('sha256').update(bytes).digest('hex') })}\n`
      // O_APPEND: each line lands whole at the end, whatever other jobs append meanwhile.
      await (await handle).write(line)
    },
    async finish() {
      await close()
      await rm(path, { force: true })
    },
    close,
  }
}

/**
 * The files a killed run journaled that still hold the journaled bytes: preencode's own, though
 * no manifest names them. Paths relative to `root`, sorted; `onDisk` (the walk's files) limits
 * them to files inside the site.
 */
export async function journaledFiles(root: string, onDisk?: ReadonlySet<string>): Promise<string[]> {
  let text: string
  try {
    text = await readFile(join(root, JOURNAL_FILENAME), 'utf8')
  } catch {
    return []
  }
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
    if (bytes && hashes.has(createHash('sha256').update(bytes).digest('hex'))) owned.push(path)
  }
  return owned.sort()
}
