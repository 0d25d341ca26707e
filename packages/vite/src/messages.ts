/**
 * What the plugin tells the user when it stands down or leaves work undone: each message names
 * the one line that does the job (`compressAfterBuild`), and comes once per project.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { preencodeMessage } from '@preencode/core/internal'
import type { Logger } from 'vite'

/**
 * Warnings already given, by project root. Process-wide on purpose: a framework runs several
 * `vite build`s for one project (Astro: the client, then the server), each loading the config
 * and making a plugin instance of its own, and the warning is the project's, once.
 */
const given = new Map<string, Set<string>>()

/** Warns `message` about the project at `root`, unless this process already did. */
export function warnOncePerProject(logger: Logger, root: string, message: string): void {
  const warned = given.get(root) ?? new Set<string>()
  given.set(root, warned)
  if (warned.has(message)) return
  warned.add(message)
  logger.warn(message)
}

/** The build-time warning: what would go wrong, that the plugin stands down, and what to use. */
export function frameworkWarning(framework: string, instead: string): string {
  return preencodeMessage(
    `${framework} writes its final pages after Vite's build, so @preencode/vite would compress a partial folder (or the wrong one): it does nothing in this build. Use ${instead}.`,
  )
}

/**
 * A framework preencode knows but cannot handle in this build (no `buildApp` hook before Vite 7,
 * no public folder found): it stands down, and names the one line that does the job.
 */
export function cannotHandleWarning(framework: string, why: string, folder: string, root: string): string {
  return preencodeMessage(
    `${framework}: ${why}, so @preencode/vite does nothing in this build rather than compress part of the site. ${compressAfterBuild(root, folder)}`,
  )
}

/** The line that compresses `folder` after the project's build: its `build` script, extended. */
export function compressAfterBuild(root: string, folder: string): string {
  const command = `preencode compress ${folder}`
  let build: unknown
  try {
    build = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: { build?: unknown } }).scripts
      ?.build
  } catch {
    build = undefined
  }
  if (typeof build !== 'string') return `Run \`${command}\` after the build.`
  return `In package.json: \`"build": ${JSON.stringify(`${build} && ${command}`)}\`.`
}
