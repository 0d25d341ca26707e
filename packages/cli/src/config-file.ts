// `preencode.config.{ts,mts,js,mjs,json}`: the settings `preencode deploy` reads so that a package
// script `"deploy": "preencode deploy"` is enough. Command-line flags override the file.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { userError, type CompressOptions, type OptionLabel } from '@preencode/core'
import type { DeploySettings } from '@preencode/deploy'
import type { VerifySettings } from '@preencode/server-config'

/** The `deploy` section of the config file: the deploy settings, checked by `resolveDeploySettings`. */
export type DeployConfig = DeploySettings

/** The whole config file. Other sections (compress, config…) belong to other commands. */
export interface PreencodeConfig {
  /** What `preencode compress` uses: every option of the plugins, size `budgets` included; flags win. */
  compress?: CompressOptions
  deploy?: DeployConfig
  /** What `preencode verify` uses (timeouts for CI); flags win. */
  verify?: VerifySettings
  [section: string]: unknown
}

/** Identity function that gives `preencode.config.ts` its types. */
export function defineConfig<T extends PreencodeConfig>(config: T): T {
  return config
}

/** The names looked for in the working directory; more than one present is an error (loadConfig). */
export const CONFIG_FILENAMES = Object.freeze([
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
  return { path, config: value as PreencodeConfig }
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
