// The rule of each deploy setting (type, unit, limits), checked wherever the setting is given:
// the config file, the CLI's flags, `deploy()`, `createTarget()`, the targets' own options. Each
// source only says how it names a setting (`--timeout`, `` `deploy.timeout` in preencode.config.json ``,
// `` `timeout` ``), so a message names what the user wrote. `../settings.ts` ties these names to
// the documented options.
import { type OptionLabel, userError } from '@preencode/core'

/** How code names a setting: `` `timeout` ``, `` `keep.deploys` ``. */
export const API_LABEL: OptionLabel = (key) => (key ? `\`${key}\`` : 'the deploy settings')

type Check = (value: unknown, key: string, label: OptionLabel) => void

const ofType =
  (type: 'string' | 'boolean'): Check =>
  (value, key, label) => {
    if (typeof value !== type) fail(`${label(key)} must be a ${type}; got ${JSON.stringify(value)}.`)
  }

const wholeNumber: Check = (value, key, label) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    fail(`${label(key)} must be a whole number >= 1; got ${JSON.stringify(value)}.`)
}

/** The one request timeout of a deploy, in seconds (S3 targets). */
const seconds: Check = (value, key, label) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    fail(`${label(key)} must be a number of seconds > 0; got ${JSON.stringify(value)}.`)
}

const KEEP_KEYS: readonly string[] = ['deploys', 'maxAgeMs']

const keepPolicy: Check = (value, key, label) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(`${label(key)} must be an object like { deploys: 2 }; got ${JSON.stringify(value)}.`)
  for (const [name, n] of Object.entries(value as object)) {
    if (!KEEP_KEYS.includes(name)) fail(`${label(`${key}.${name}`)} is unknown; use deploys or maxAgeMs.`)
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0)
      fail(`${label(`${key}.${name}`)} must be a number >= 0; got ${JSON.stringify(n)}.`)
  }
}

/** Each setting's rule: its type, unit and limits; the one list of the deploy settings, in the order they are documented. */
const SETTING_RULES = {
  dir: ofType('string'),
  to: ofType('string'),
  endpoint: ofType('string'),
  region: ofType('string'),
  forcePathStyle: ofType('boolean'),
  concurrency: wholeNumber,
  delete: ofType('boolean'),
  keep: keepPolicy,
  dryRun: ofType('boolean'),
  release: ofType('boolean'),
  keepReleases: wholeNumber,
  ssh: ofType('string'),
  timeout: seconds,
  deleteUnknown: ofType('boolean'),
  includeDotfiles: ofType('boolean'),
} as const satisfies Record<string, Check>

/** The name of every deploy setting. */
export type DeploySettingName = keyof typeof SETTING_RULES

/**
 * The settings of every deploy, whatever the target: `deploy()`'s own. A target declares the
 * others it takes (`TargetEntry.settings`), and `createTarget` refuses the rest.
 */
export const EVERY_TARGET: readonly DeploySettingName[] = Object.freeze([
  'dir',
  'to',
  'concurrency',
  'delete',
  'keep',
  'dryRun',
  'deleteUnknown',
  'includeDotfiles',
] as const)

/** The names of the deploy settings, in the order they are documented. */
export const DEPLOY_SETTING_KEYS = Object.freeze(Object.keys(SETTING_RULES) as DeploySettingName[])

/**
 * Checks the given settings among `values` (other keys are left alone): the rule of each setting,
 * wherever it is set. Fails naming the setting as `label` spells it.
 */
export function checkDeploySettings(values: Partial<Record<DeploySettingName, unknown>>, label: OptionLabel): void {
  for (const key of DEPLOY_SETTING_KEYS) {
    const value = values[key]
    if (value !== undefined) SETTING_RULES[key](value, key, label)
  }
}

/** Throws the user error of a bad setting. */
export function fail(message: string): never {
  throw userError('options', message)
}
