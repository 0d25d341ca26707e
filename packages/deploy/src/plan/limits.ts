// The numeric deploy settings (concurrency, the grace period, releases kept) are checked by one
// rule wherever they come from: deploy()'s options, rsyncTarget()'s, the config file, the CLI's
// flags. Each source only says how it spells an option, so a message names what the user wrote.
import { userError } from '@preencode/core'
import type { KeepPolicy } from './state.js'

/** The deploy settings `checkDeployLimits()` checks: `concurrency`, `keep`, `keepReleases`. */
export interface DeployLimits {
  concurrency?: number | undefined
  keep?: KeepPolicy | undefined
  keepReleases?: number | undefined
}

/** An option as the checks name it; the source maps it to its own spelling. */
export type DeployLimitName = 'concurrency' | 'keepReleases' | `keep.${string}`

/** How a source spells an option: `--concurrency`, `preencode.config.json: deploy.concurrency`, `deploy: concurrency`. */
export type NameOption = (option: DeployLimitName) => string

const KEEP_KEYS: ReadonlySet<string> = new Set(['deploys', 'maxAgeMs'])

/** Throws a user error naming the first bad setting in the source's own spelling. */
export function checkDeployLimits(limits: DeployLimits, nameOf: NameOption): void {
  for (const option of ['concurrency', 'keepReleases'] as const) {
    const value = limits[option]
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) {
      throw userError('options', `${nameOf(option)} must be a whole number >= 1; got ${JSON.stringify(value)}.`)
    }
  }
  if (limits.keep === undefined) return
  if (typeof limits.keep !== 'object' || limits.keep === null)
    throw userError(
      'options',
      `${nameOf('keep.deploys').replace(/\.deploys$/, '')} must be an object like { deploys: 2 }.`,
    )
  for (const [key, value] of Object.entries(limits.keep)) {
    if (!KEEP_KEYS.has(key)) throw userError('options', `${nameOf(`keep.${key}`)} is unknown; use deploys or maxAgeMs.`)
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw userError('options', `${nameOf(`keep.${key}`)} must be a number >= 0; got ${JSON.stringify(value)}.`)
  }
}
