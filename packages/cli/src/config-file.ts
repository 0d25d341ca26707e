// `preencode.config.{ts,mts,js,mjs,json}`: the settings `preencode deploy` reads so that a package
// script `"deploy": "preencode deploy"` is enough. Command-line flags override the file.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { userError, type CompressOptions } from '@preencode/core'
import { checkDeployLimits, type KeepPolicy } from '@preencode/deploy'
import type { VerifyConfig } from './verify-config.js'

/** The `deploy` section of the config file; every field is optional. */
export interface DeployConfig {
  /**
   * The built site to deploy (holding `.preencode-manifest.json`).
   * @default 'dist'
   */
  dir?: string
  /**
   * Where to: a local path, `user@host:path`, `rsync://host[:port]/module/path` or `s3://bucket/prefix`.
   * There is no default: deploying somewhere implicit could overwrite the wrong folder.
   */
  to?: string
  /** S3 endpoint for non-AWS stores (MinIO, R2…); path-style addressing is then used. @default AWS */
  endpoint?: string
  /** S3 region. @default AWS_REGION, then 'us-east-1' */
  region?: string
  /** S3 path-style addressing. @default true with `endpoint` */
  forcePathStyle?: boolean
  /** Uploads in flight at most. @default 8 */
  concurrency?: number
  /** Delete objects the site no longer has, after every upload succeeded. @default false */
  delete?: boolean
  /** Grace period for stale objects when `delete` is on. @default { deploys: 0 } */
  keep?: KeepPolicy
  /** Plan only. @default false */
  dryRun?: boolean
  /** rsync/local: upload into `releases/<id>` and switch a `current` symlink. @default false */
  release?: boolean
  /** Releases kept in release mode. @default 5 */
  keepReleases?: number
  /** rsync: the remote shell, e.g. `ssh -p 2222`. @default 'ssh' */
  ssh?: string
  /** S3: seconds without an answer after which a request fails (retried once). @default 30 */
  timeout?: number
  /**
   * With `delete` on a target that has no deploy state (preencode never deployed there): also
   * delete the files found there that the site does not have. Without it such a deploy refuses.
   * @default false
   */
  deleteUnknown?: boolean
  /**
   * Upload dotfiles and files in dot-folders too (`.env`, `.git/`…); off, only `/.well-known/` and
   * `.htaccess` files go. @default false
   */
  includeDotfiles?: boolean
}

/** The whole config file. Other sections (compress, config…) belong to other commands. */
export interface PreencodeConfig {
  /** What `preencode compress` uses: every option of the plugins, size `budgets` included; flags win. */
  compress?: CompressOptions
  deploy?: DeployConfig
  /** What `preencode verify` uses (timeouts for CI); flags win. */
  verify?: VerifyConfig
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

const DEPLOY_KEYS: Readonly<Record<keyof DeployConfig, 'string' | 'number' | 'boolean' | 'object'>> = {
  dir: 'string',
  to: 'string',
  endpoint: 'string',
  region: 'string',
  forcePathStyle: 'boolean',
  concurrency: 'number',
  delete: 'boolean',
  keep: 'object',
  dryRun: 'boolean',
  release: 'boolean',
  keepReleases: 'number',
  ssh: 'string',
  timeout: 'number',
  deleteUnknown: 'boolean',
  includeDotfiles: 'boolean',
}

/** Checks a deploy section, naming the bad key and where it came from. */
export function validateDeployConfig(config: unknown, where: string): DeployConfig {
  if (config === undefined) return {}
  if (typeof config !== 'object' || config === null) throw userError('options', `${where}: "deploy" must be an object.`)
  for (const [key, value] of Object.entries(config)) {
    const type = DEPLOY_KEYS[key as keyof DeployConfig]
    if (!type)
      throw userError(
        'options',
        `${where}: unknown deploy option "${key}"; known: ${Object.keys(DEPLOY_KEYS).join(', ')}.`,
      )
    if (value !== undefined && typeof value !== type)
      throw userError('options', `${where}: deploy.${key} must be a ${type}; got ${JSON.stringify(value)}.`)
  }
  const result = config as DeployConfig
  if (result.timeout !== undefined && !(Number.isFinite(result.timeout) && result.timeout > 0))
    throw userError(
      'options',
      `${where}: deploy.timeout must be a number of seconds > 0; got ${JSON.stringify(result.timeout)}.`,
    )
  checkDeployLimits(result, (option) => `${where}: deploy.${option}`)
  return result
}
