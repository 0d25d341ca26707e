// The settings of a verify run a user writes: the `verify` section of `preencode.config.*`, the
// flags of `preencode verify` and `verifySite()`'s options are the same names, in the same units
// (seconds), checked here by one rule each. A source only says how it names a setting (`--timeout`,
// `` `verify.timeout` in preencode.config.json ``, `` `timeout` ``), so a message names what the
// user wrote.
import { type OptionLabel, userError } from '@preencode/core'

/** The settings of a verify run; every one is optional. */
export interface VerifySettings {
  /**
   * Check at most this many files (HTML first, then spread evenly over the rest).
   * @default every file
   */
  limit?: number
  /**
   * Requests in flight at most.
   * @default 8
   */
  concurrency?: number
  /**
   * Seconds one answer (headers and body) may take. The first request that gets no complete
   * answer in time stops the run with one error naming its URL.
   * @default 30
   */
  timeout?: number
  /**
   * Seconds the whole run may take; then it stops with one error naming the site.
   * @default 600
   */
  deadline?: number
}

export const DEFAULT_TIMEOUT = 30
export const DEFAULT_DEADLINE = 600

/** How code names a setting: `` `timeout` ``. */
export const KEY_LABEL: OptionLabel = (key) => (key ? `\`${key}\`` : 'the verify settings')

type Rule = (value: unknown) => string | undefined

const wholeNumber: Rule = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 ? undefined : 'a whole number >= 1'
const seconds: Rule = (value) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? undefined : 'a number of seconds > 0'

const RULES: Readonly<Record<keyof VerifySettings, Rule>> = {
  limit: wholeNumber,
  concurrency: wholeNumber,
  timeout: seconds,
  deadline: seconds,
}
const KEYS = Object.keys(RULES) as (keyof VerifySettings)[]

function fail(message: string): never {
  throw userError('options', message)
}

/** Checks the verify settings among `values` (other keys are left alone), naming a bad one by `label`. */
export function checkVerifySettings(values: VerifySettings, label: OptionLabel): void {
  // The millisecond options of before, refused by name rather than silently ignored.
  for (const old of ['timeoutMs', 'deadlineMs']) {
    if (old in values) fail(`\`${old}\` is now \`${old.slice(0, -2)}\`, in seconds.`)
  }
  for (const key of KEYS) {
    const value = values[key]
    const expected = value === undefined ? undefined : RULES[key](value)
    if (expected) fail(`${label(key)} must be ${expected}; got ${JSON.stringify(value)}.`)
  }
}

/**
 * The verify settings from a config file's `verify` section, the CLI's flags or code: unknown
 * keys, types, units and limits checked. `label` names a setting where the user wrote it
 * (`label('')` is the whole section); by default its key.
 */
export function resolveVerifySettings(raw: unknown, label: OptionLabel = KEY_LABEL): VerifySettings {
  if (raw === undefined) return {}
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    fail(`${label('')} must be an object of verify settings; got ${JSON.stringify(raw)}.`)
  for (const key of Object.keys(raw)) {
    if (!(KEYS as string[]).includes(key)) fail(`${label(key)} is unknown; known: ${KEYS.join(', ')}.`)
  }
  checkVerifySettings(raw as VerifySettings, label)
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined)) as VerifySettings
}
