// `preencode.config.{ts,mts,js,mjs,json}`: the settings `preencode deploy` reads so that a package
// script `"deploy": "preencode deploy"` is enough. Command-line flags override the file.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type CompressOptions, type OptionLabel, resolveCompressOptions, userError } from '@preencode/core'
import { type DeploySettings, resolveDeploySettings } from '@preencode/deploy'
import { resolveVerifySettings, type VerifySettings } from '@preencode/server-config'

/** The `deploy` section of the config file: the deploy settings, checked by `resolveDeploySettings`. */
export type DeployConfig = DeploySettings

/** The whole config file: one section per command that reads it; any other key is refused by name. */
export interface PreencodeConfig {
  /** What `preencode compress` uses: every option of the plugins, size `budgets` included; flags win. */
  compress?: CompressOptions
  deploy?: DeployConfig
  /** What `preencode verify` uses (timeouts for CI); flags win. */
  verify?: VerifySettings
}

/**
 * The sections, each with the resolver that knows its keys: a key written at the top level is
 * looked up in each (`{ [key]: undefined }` passes only where the key is known) to say where it goes.
 */
const SECTIONS: Readonly<Record<keyof PreencodeConfig, (probe: Record<string, unknown>) => unknown>> = {
  compress: (probe) => resolveCompressOptions({ cache: false, ...probe } as CompressOptions),
  deploy: resolveDeploySettings,
  verify: resolveVerifySettings,
}

/** Keys that would set or reach an object's prototype (`{"compress": {"__proto__": {…}}}`): never settings. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/** Identity function that gives `preencode.config.ts` its types. */
export function defineConfig<T extends PreencodeConfig>(config: T): T {
  return config
}

/** The names looked for in the working directory; more than one present is an error (loadConfig). */
const CONFIG_FILENAMES = Object.freeze([
  'preencode.config.ts',
  'preencode.config.mts',
  'preencode.config.js',
  'preencode.config.mjs',
  'preencode.config.json',
])

export interface LoadedConfig {
  path: string
  config: PreencodeConfig
}

/** Finds and loads the config file in `cwd`; undefined when there is none. */
export async function loadConfig(cwd: string = process.cwd()): Promise<LoadedConfig | undefined> {
  const found = CONFIG_FILENAMES.filter((n) => existsSync(join(cwd, n)))
  // Reading one and ignoring the other would leave edits to the ignored one without effect.
  if (found.length > 1)
    throw userError(
      'cli',
      `Found ${found.length} config files in ${cwd}: ${found.map((n) => join(cwd, n)).join(' and ')}; preencode reads one. Keep one (move its settings over) and delete the others.`,
    )
  const name = found[0]
  if (!name) return undefined
  const path = join(cwd, name)
  let value: unknown
  if (name.endsWith('.json')) {
    try {
      value = JSON.parse(await readFile(path, 'utf8'))
    } catch (cause) {
      throw userError('cli', `${path} is not valid JSON: ${(cause as Error).message}`, { cause, code: 'BAD_INPUT' })
    }
  } else {
    try {
      const module = (await import(pathToFileURL(path).href)) as { default?: unknown }
      value = module.default
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code
      if (
        name.endsWith('ts') &&
        (code === 'ERR_UNKNOWN_FILE_EXTENSION' || code === 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING')
      ) {
        throw userError(
          'cli',
          `${path} needs Node's TypeScript type stripping (Node >= 22.18 or >= 23.6; this is ${process.version}). Upgrade Node, or rename it to preencode.config.mjs.`,
          { cause, code: 'UNSUPPORTED_RUNTIME' },
        )
      }
      throw userError('cli', `Loading ${path} failed: ${(cause as Error).message}`, { cause, code: 'BAD_INPUT' })
    }
  }
  if (typeof value !== 'object' || value === null) {
    throw userError('cli', `${path} must export an object (export default defineConfig({ deploy: { … } })).`, {
      code: 'BAD_INPUT',
    })
  }
  checkShape(value as Record<string, unknown>, path)
  return { path, config: value as PreencodeConfig }
}

/**
 * Refuses what the sections' own checks cannot see: a prototype key anywhere (JSON.parse keeps
 * `__proto__` as a key, and copying it into options would set their prototype), and a key that
 * is no section — named with the section it belongs in when one knows it.
 */
function checkShape(config: Record<string, unknown>, path: string): void {
  const bad = prototypeKeyIn(config, '')
  if (bad)
    throw userError(
      'cli',
      `\`${bad}\` in ${path} is not a setting: a key that sets an object's prototype is refused. Write the settings in the section itself.`,
      { code: 'BAD_INPUT' },
    )
  const sections = Object.keys(SECTIONS)
  for (const key of Object.keys(config)) {
    if (sections.includes(key)) continue
    const homes = sections.filter((section) => knows(section as keyof PreencodeConfig, key))
    throw userError(
      'cli',
      homes.length > 0
        ? `\`${key}\` in ${path} is a setting of ${homes.map((h) => `\`${h}\``).join(' or ')}, not a section: move it into "${homes[0]}": { … }${homes.length > 1 ? ' (or the other)' : ''}.`
        : `\`${key}\` in ${path} is unknown; the file's sections are ${sections.join(', ')}.`,
      { code: 'BAD_INPUT' },
    )
  }
}

function knows(section: keyof PreencodeConfig, key: string): boolean {
  try {
    SECTIONS[section]({ [key]: undefined })
    return true
  } catch {
    return false
  }
}

/** The first prototype key in `value` (walked through plain objects and arrays), as a dotted path. */
function prototypeKeyIn(value: unknown, where: string): string | undefined {
  const at = (key: string): string => (where ? `${where}.${key}` : key)
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = prototypeKeyIn(item, `${where}[${index}]`)
      if (found) return found
    }
    return undefined
  }
  if (!isRecord(value)) return undefined
  // `{ __proto__: { … } }` in a JS file sets the prototype: its keys would be read as settings.
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null && Object.keys(prototype as object).length > 0)
    return at('__proto__')
  for (const [key, item] of Object.entries(value)) {
    if (PROTOTYPE_KEYS.has(key)) return at(key)
    const found = prototypeKeyIn(item, at(key))
    if (found) return found
  }
  return undefined
}

/**
 * How the file names a key of one of its sections in messages: `` `deploy.timeout` in /site/preencode.config.json ``
 * (`key` '' is the section itself).
 */
export function fileLabel(path: string, section: string): OptionLabel {
  return (key) => `\`${key ? `${section}.${key}` : section}\` in ${path}`
}

/**
 * How a command names a setting when flags are laid over the file's section: `flagOf(key)` when
 * the user gave that flag (it returns the flag, else undefined), otherwise the file's key.
 */
export function settingLabel(
  section: string,
  path: string | undefined,
  flagOf: (key: string) => string | undefined,
): OptionLabel {
  const inFile = path ? fileLabel(path, section) : (key: string) => `\`${key ? `${section}.${key}` : section}\``
  return (key) => flagOf(key) ?? inFile(key)
}

/** A plain object (a config section that can be merged). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
