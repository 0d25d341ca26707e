/**
 * What the process's exit looks at for the Vite plugin. Every folder a build (not watch mode)
 * compressed is handed to core's `guardFolder` (`@preencode/core/internal`), the record the Vite
 * and Rollup plugins share: as the process exits it is looked at once more, compressed again if a
 * tool wrote after the plugin's last hook (vite-ssg renders after the builds, Slidev writes
 * `404.html` after the build, a plugin's own `closeBundle` after preencode's), and ONE warning line
 * names the files. A warning, so tools that build with `logLevel: 'warn'` (VuePress) show it.
 *
 * Never silent either when Vite's `buildApp` step never comes: an environment's `closeBundle`
 * leaves the compression to it in an app build, but a script may build the environments itself
 * (`vite.build()`, `builder.build()`) with `builder` options set. What is still waiting for it
 * when the process exits is named, with the command that compresses it. That record is the
 * plugin's own, process-wide on purpose (a process runs several builds); its entries name their
 * environment object, so builds never see each other's. It is kept on `globalThis` under a
 * registered symbol, so two copies of this module share it and its `exit` listener.
 */

import { guardFolder, preencodeMessage } from '@preencode/core/internal'
import type { Logger } from 'vite'
import { compressAfterBuild } from './messages.js'

/** Folders an environment left to a `buildApp` step: the project root, and where to say so. */
interface Waiting {
  folders: Set<string>
  root: string
  logger: Logger
}

const WAITING = Symbol.for('preencode.vite.waiting-for-build-app')

/**
 * `found` in `dir` (absolute) after a run: in a build, the folder is looked at again as the
 * process exits and they are named then, in the one line; in watch mode they are named now.
 * `logger`: the build's, where the line goes.
 */
export function guardAfterRun(
  dir: string,
  root: string,
  logger: Logger,
  found: readonly string[],
  atExit: boolean,
): void {
  guardFolder({
    dir,
    root,
    found,
    atExit,
    warn: (message) => logger.warn(message),
    completeCommand: (folder) => compressAfterBuild(root, folder),
  })
}

/** `closeBundle` of `environment` left `folder` (as shown to the user) to the app build's `buildApp` hook. */
export function leaveToBuildApp(environment: object, folder: string, root: string, logger: Logger): void {
  const waiting = waitingRecord()
  const entry = waiting.get(environment) ?? { folders: new Set<string>(), root, logger }
  entry.folders.add(folder)
  waiting.set(environment, entry)
}

/** The `buildApp` hook ran after these environments were built: nothing of theirs is waiting any more. */
export function buildAppRan(environments: readonly object[]): void {
  const waiting = waitingRecord()
  for (const environment of environments) waiting.delete(environment)
}

function waitingRecord(): Map<object, Waiting> {
  const holder = globalThis as { [WAITING]?: Map<object, Waiting> }
  const existing = holder[WAITING]
  if (existing) return existing
  const waiting = new Map<object, Waiting>()
  holder[WAITING] = waiting
  process.once('exit', () => warnWaiting(waiting))
  return waiting
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
