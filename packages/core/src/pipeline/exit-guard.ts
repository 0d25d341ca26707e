/**
 * Whatever tool writes last, a folder a build compressed stays true (issue 34 item 1): a tool
 * preencode does not know may write after the plugin's last hook (vite-ssg renders after the
 * builds, a plugin's own `closeBundle` after preencode's, a script after `bundle.close()`). So the
 * Vite and Rollup plugins hand every folder a build (not watch mode) compressed to `guardFolder`,
 * and as the process exits — `process.on('exit')`, which `process.exit()` fires too — each is
 * looked at once more by `completeFoldersSync` (reconcile's rule, a child process that compresses
 * again, the stale variants removed if that fails). Then ONE warning line for the whole process
 * names the files written, changed or skipped as late after preencode compressed them, and says
 * they were compressed again or gives the command that completes the folder. A process killed by
 * a signal runs no `exit` listener; the next `preencode config`, `deploy` or `verify` reconciles
 * the folder first.
 *
 * This is the process-wide record, and it outlives the builds on purpose: a process runs several
 * builds (vite-ssg: the client, then the server, then its rendering; a script: several Rollup
 * bundles), and its exit is one moment with one line. It is kept on `globalThis` under a
 * registered symbol, so every copy of core in the process (the Vite plugin's, the Rollup
 * plugin's) shares it, and the process has one `exit` listener.
 */
import { realpathSync } from 'node:fs'
import { relative } from 'node:path'
import { preencodeMessage } from '../errors.js'
import { completeFoldersSync, type FolderAtExit } from './folder-at-exit.js'

/** One folder a plugin compressed, handed over when its run (and the plugin's own look) is done. */
export interface FolderGuard {
  /** The folder (absolute). */
  dir: string
  /** The project root: the folder is named relative to it. */
  root: string
  /** Files the build already compressed again there, or skipped as late: named in the line. */
  found?: readonly string[] | undefined
  /** Where the line goes, `[preencode]` prefix included: the bundler's warning channel. */
  warn: (message: string) => void
  /**
   * A build: look again as the process exits, and name `found` then, in the one line. Watch
   * mode: each rebuild compresses again, so `found` (already compressed) is named now.
   */
  atExit: boolean
  /**
   * The sentence that completes `folder` (as shown) when compressing again fails.
   * @default "Run `preencode compress <folder>` after the build."
   */
  completeCommand?: ((folder: string) => string) | undefined
}

/** Names shown in the line; the count says how many more. */
const NAMED = 5

/** A folder looked at as the process exits: how it is named, where the line goes, what was already found. */
interface Guarded {
  root: string
  warn: (message: string) => void
  completeCommand: (folder: string) => string
  found: Set<string>
}

const AT_EXIT = Symbol.for('preencode.folders-at-exit.v1')

/** Looks at `guard.dir` again as the process exits, or names what was found now; see the module comment. */
export function guardFolder({ dir, root, found = [], warn, atExit, completeCommand }: FolderGuard): void {
  const command = completeCommand ?? defaultCommand
  if (!atExit) {
    const names = [...new Set(found)].sort()
    const folder = relative(root, dir) || '.'
    if (names.length > 0) warn(preencodeMessage(afterRunLine(folder, names, { completed: true }, command)))
    return
  }
  const folders = guardedFolders()
  const key = realOf(dir)
  const entry = folders.get(key) ?? { root, warn, completeCommand: command, found: new Set<string>() }
  entry.warn = warn
  for (const path of found) entry.found.add(path)
  folders.set(key, entry)
}

/** The line's words for one folder, without the `[preencode]` prefix. */
function afterRunLine(
  folder: string,
  names: readonly string[],
  { completed, failure }: Pick<FolderAtExit, 'completed' | 'failure'>,
  command: (folder: string) => string,
): string {
  const what = `${names.length} file(s) in ${folder} were written, changed or removed after preencode compressed it (${named(names)})`
  if (completed)
    return `${what}: compressed again before the build ended, so every variant is the encoding of the file beside it.`
  return `${what}, and compressing again failed (${failure ?? 'unknown'}): their variants were removed, so none is served stale. ${command(folder)}`
}

function defaultCommand(folder: string): string {
  return `Run \`preencode compress ${folder}\` after the build.`
}

function guardedFolders(): Map<string, Guarded> {
  const holder = globalThis as { [AT_EXIT]?: Map<string, Guarded> }
  const existing = holder[AT_EXIT]
  if (existing) return existing
  const folders = new Map<string, Guarded>()
  holder[AT_EXIT] = folders
  process.once('exit', () => checkAtExit(folders))
  return folders
}

/** The `exit` listener: complete every guarded folder, then one line for all of them. */
function checkAtExit(folders: Map<string, Guarded>): void {
  const results = new Map(completeFoldersSync([...folders.keys()]).map((result) => [result.root, result]))
  const parts: string[] = []
  let warn: ((message: string) => void) | undefined
  for (const [dir, entry] of folders) {
    const result = results.get(dir)
    const names = [...new Set([...entry.found, ...(result?.found ?? [])])].sort()
    if (names.length === 0) continue
    warn ??= entry.warn
    const folder = relative(entry.root, dir) || '.'
    parts.push(afterRunLine(folder, names, result ?? { completed: true }, entry.completeCommand))
  }
  folders.clear()
  if (warn) warn(preencodeMessage(parts.join(' ')))
}

function named(paths: readonly string[]): string {
  const more = paths.length > NAMED ? `, and ${paths.length - NAMED} more` : ''
  return `${paths.slice(0, NAMED).join(', ')}${more}`
}

function realOf(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
