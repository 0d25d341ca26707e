// The `verify` section of `preencode.config.*`: how long `preencode verify` may take, so a CI
// job sets it once. Command-line flags override it.
import { userError } from '@preencode/core'

/** The `verify` section of the config file; every field is optional. */
export interface VerifyConfig {
  /** Seconds one answer (headers and body) may take; the first that takes longer stops the run. @default 30 */
  timeout?: number
  /** Seconds the whole run may take. @default 600 */
  deadline?: number
  /** Requests in flight at most. @default 8 */
  concurrency?: number
  /** Check at most this many files (HTML first, then a spread sample). @default every file */
  limit?: number
}

const KEYS: readonly (keyof VerifyConfig)[] = ['timeout', 'deadline', 'concurrency', 'limit']

/** Checks a verify section, naming the bad key and where it came from. */
export function validateVerifyConfig(config: unknown, where: string): VerifyConfig {
  if (config === undefined) return {}
  if (typeof config !== 'object' || config === null) throw userError('options', `${where}: "verify" must be an object.`)
  for (const [key, value] of Object.entries(config)) {
    if (!KEYS.includes(key as keyof VerifyConfig))
      throw userError('options', `${where}: unknown verify option "${key}"; known: ${KEYS.join(', ')}.`)
    if (value === undefined) continue
    const whole = key === 'concurrency' || key === 'limit'
    if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value) || (whole && !Number.isInteger(value)))
      throw userError(
        'options',
        `${where}: verify.${key} must be ${whole ? 'a whole number >= 1' : 'a number of seconds > 0'}; got ${JSON.stringify(value)}.`,
      )
  }
  return config as VerifyConfig
}

/** `"30"` or `"2.5"` -> seconds; undefined when the flag was not given. */
export function parseSeconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const text = String(value).trim()
  const seconds = Number(text)
  if (!/^\d+(\.\d+)?$/.test(text) || !(seconds > 0))
    throw userError('cli', `--${flag} must be a number of seconds > 0; got \`${String(value)}\`.`)
  return seconds
}
