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
 * Never silent either when Vite's `buildApp` step never comes: an environment's `closeBundle`
 * leaves the compression to it in an app build, but a script may build the environments itself
 * (`vite.build()`, `builder.build()`) with `builder` options set. What is still waiting for it
 * when the process exits is named, with the command that compresses it.
 *
 * This is the plugin's one process-wide record, and it outlives the builds on purpose: a process
 * runs several builds (vite-ssg: the client, then the server, then its rendering), and its exit
 * is one moment with one line. Entries name their build (the folder, the environment object), so
 * builds never see each other's. It is kept on `globalThis` under a registered symbol, so two
 * copies of this module share it and the process has one `exit` listener.
 */

import { relative } from 'node:path'
import { completeFoldersSync, type FolderAtExit, preencodeMessage } from '@preencode/core/internal'
import type { Logger } from 'vite'
import { compressAfterBuild } from './messages.js'

/** Names shown in the line; the count says how many more. */
const NAMED = 5

/** A folder a build compressed: where its names are shown from, where the line goes, what was already found. */
interface Guarded {
  root: string
  logger: Logger
  /** Files already compressed again in the build (or skipped as late), named in the line at exit. */
  found: Set<string>
}

/** Folders an environment left to a `buildApp` step: the project root, and where to say so. */
interface Waiting {
  folders: Set<string>
  root: string
  logger: Logger
}

/** What the process's exit looks at: folders compressed by a build, folders left to `buildApp` by environment. */
interface AtExit {
  folders: Map<string, Guarded>
  waiting: Map<object, Waiting>
}

const AT_EXIT = Symbol.for('preencode.vite.at-exit')

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
  const { folders } = atExit()
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

/** `closeBundle` of `environment` left `folder` (as shown to the user) to the app build's `buildApp` hook. */
export function leaveToBuildApp(environment: object, folder: string, root: string, logger: Logger): void {
  const { waiting } = atExit()
  const entry = waiting.get(environment) ?? { folders: new Set<string>(), root, logger }
  entry.folders.add(folder)
  waiting.set(environment, entry)
}

/** The `buildApp` hook ran after these environments were built: nothing of theirs is waiting any more. */
export function buildAppRan(environments: readonly object[]): void {
  const { waiting } = atExit()
  for (const environment of environments) waiting.delete(environment)
}

function atExit(): AtExit {
  const holder = globalThis as { [AT_EXIT]?: AtExit }
  const existing = holder[AT_EXIT]
  if (existing) return existing
  const record: AtExit = { folders: new Map(), waiting: new Map() }
  holder[AT_EXIT] = record
  process.once('exit', () => {
    warnWaiting(record.waiting)
    checkAtExit(record.folders)
  })
  return record
}

/** A line for each folder still left to a `buildApp` step that never came. */
function warnWaiting(waiting: Map<object, Waiting>): void {
  for (const { folders, root, logger } of waiting.values())
    for (const dir of folders)
      logger.warn(
        preencodeMessage(
          `${dir} was left to Vite's buildApp step, which never ran (the environments were built with vite.build() or builder.build()): nothing in it was compressed. ${compressAfterBuild(root, dir)}`,
        ),
      )
  waiting.clear()
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
