/**
 * Whatever tool writes last, the folder a build compressed stays true (issue 34 item 1): a tool
 * preencode does not know may rewrite a page after its last hook (vite-ssg renders after the
 * builds, Slidev writes `404.html` after the build, a plugin's own `closeBundle` after
 * preencode's). So every folder a build (not watch mode) compresses is looked at once more as the
 * process exits — `process.on('exit')`, which `process.exit()` fires too — by core's synchronous
 * check (`completeFoldersSync`: reconcile's rule, a child process that compresses again, the
 * stale variants removed if that fails). Then ONE warning line for the whole process names the
 * files written, changed or skipped as late after preencode compressed them, and either says they
 * were compressed again or gives the command that completes the folder. A warning, so tools that
 * build with `logLevel: 'warn'` (VuePress) show it. A process killed by a signal runs no `exit`
 * listener; the next `preencode config`, `deploy` or `verify` reconciles the folder first.
 *
 * The folders are the process's, not one build's: a process runs several builds (vite-ssg: the
 * client, then the server, then its rendering), and its exit is one moment with one line. They are
 * kept on `globalThis` under a registered symbol, so two copies of this module share them.
 */

import { relative } from 'node:path'
import { completeFoldersSync, type FolderAtExit, preencodeMessage } from '@preencode/core/internal'
import type { Logger } from 'vite'
import { compressAfterBuild } from './frameworks.js'

/** Names shown in the line; the count says how many more. */
const NAMED = 5

/** A folder a build compressed: where its names are shown from, where the line goes, what was already found. */
interface Guarded {
  root: string
  logger: Logger
  /** Files already compressed again in the build (or skipped as late), named in the line at exit. */
  found: Set<string>
}

const FOLDERS = Symbol.for('preencode.vite.folders-at-exit')

/** One folder's part of a line. */
export interface AfterRun {
  /** The folder, relative to the project root. */
  folder: string
  root: string
  /** The files written, changed, removed or late after preencode compressed the folder. */
  names: readonly string[]
  completed: boolean
  failure?: string | undefined
}

/**
 * Looks at `dir` (absolute, real path) again as the process exits; `found`: files the build
 * already compressed again there, named in the line then. `logger`: the build's, where the line goes.
 */
export function guardAtExit(dir: string, root: string, logger: Logger, found: readonly string[] = []): void {
  const folders = guardedFolders()
  const entry = folders.get(dir) ?? { root, logger, found: new Set<string>() }
  entry.logger = logger
  for (const path of found) entry.found.add(path)
  folders.set(dir, entry)
}

/** The line's words for one folder, without the `[preencode]` prefix. */
export function afterRunLine({ folder, root, names, completed, failure }: AfterRun): string {
  const what = `${names.length} file(s) in ${folder} were written, changed or removed after preencode compressed it (${named(names)})`
  if (completed)
    return `${what}: compressed again before the build ended, so every variant is the encoding of the file beside it.`
  return `${what}, and compressing again failed (${failure ?? 'unknown'}): their variants were removed, so none is served stale. ${compressAfterBuild(root, folder)}`
}

function guardedFolders(): Map<string, Guarded> {
  const holder = globalThis as { [FOLDERS]?: Map<string, Guarded> }
  const existing = holder[FOLDERS]
  if (existing) return existing
  const folders = new Map<string, Guarded>()
  holder[FOLDERS] = folders
  process.once('exit', () => checkAtExit(folders))
  return folders
}

/** The `exit` listener: complete every guarded folder, then one line for all of them. */
function checkAtExit(folders: Map<string, Guarded>): void {
  const results = new Map<string, FolderAtExit>(completeFoldersSync([...folders.keys()]).map((r) => [r.root, r]))
  const parts: string[] = []
  let logger: Logger | undefined
  for (const [dir, entry] of folders) {
    const result = results.get(dir)
    const names = [...new Set([...entry.found, ...(result?.found ?? [])])].sort()
    if (names.length === 0) continue
    logger ??= entry.logger
    const folder = relative(entry.root, dir) || '.'
    parts.push(
      afterRunLine({ folder, root: entry.root, names, completed: result?.completed ?? true, failure: result?.failure }),
    )
  }
  folders.clear()
  if (logger) logger.warn(preencodeMessage(parts.join(' ')))
}

function named(paths: readonly string[]): string {
  const more = paths.length > NAMED ? `, and ${paths.length - NAMED} more` : ''
  return `${paths.slice(0, NAMED).join(', ')}${more}`
}
