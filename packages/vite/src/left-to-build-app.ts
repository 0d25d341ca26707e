/**
 * Never silent when Vite's `buildApp` step never comes: an environment's `closeBundle` leaves
 * the compression to it in an app build, but a script may build the environments itself
 * (`vite.build()`, `builder.build()`) with `builder` options set. What is still waiting when
 * the process is about to exit is named, with the command that compresses it.
 */

import { preencodeMessage } from '@preencode/core/internal'
import type { Logger } from 'vite'
import { compressAfterBuild } from './frameworks.js'

/** Folders (as shown to the user) left to `buildApp`: the project root, and where to say so. */
const waiting = new Map<string, { root: string; logger: Logger }>()
let listening = false

/** `closeBundle` left `folder` to the `buildApp` hook. */
export function leaveToBuildApp(folder: string, root: string, logger: Logger): void {
  waiting.set(folder, { root, logger })
  if (listening) return
  listening = true
  process.once('beforeExit', () => {
    listening = false
    for (const [dir, { root, logger }] of waiting)
      logger.warn(
        preencodeMessage(
          `${dir} was left to Vite's buildApp step, which never ran (the environments were built with vite.build() or builder.build()): nothing in it was compressed. ${compressAfterBuild(root, dir)}`,
        ),
      )
    waiting.clear()
  })
}

/** The `buildApp` hook ran after the environments were built: nothing is waiting any more. */
export function buildAppRan(): void {
  waiting.clear()
}
