import { type BuildOptions, type ResolvedBuildOptions, resolveBuildOptions, userError } from '@preencode/core'
import { resolveServerConfigFiles, type ServerConfigFile } from '@preencode/server-config'
import type { ResolvedConfig } from 'vite'

export type { ServerConfigFile }

/** What `environments` may be given as a function: the environment's name and who consumes it. */
export interface PreencodeEnvironmentInfo {
  name: string
  consumer: 'client' | 'server'
}

/** Options of `preencode()`: every compression option, plus how the plugin reports and where it runs. */
export interface PreencodeViteOptions extends BuildOptions {
  /**
   * Which Vite environments to compress: a list of names or a predicate. SSR output is run by
   * Node, not sent to browsers, so by default only environments consumed by a client are.
   * @default every environment whose `consumer` is `'client'`
   */
  environments?: string[] | ((environment: PreencodeEnvironmentInfo) => boolean)
  /**
   * Server configs to generate from the manifest after each build, each to `path` (relative
   * to Vite's root): into the output (`dist/.htaccess` for shared hosting) or to a file you
   * commit (`deploy/nginx.conf`). nginx and Caddy need `root`, the site's path on the server.
   * @default []
   * @example [{ server: 'apache', path: 'dist/.htaccess' }, { server: 'nginx', flavor: 'stock', root: '/srv/site', path: 'deploy/site.nginx.conf' }]
   */
  serverConfigs?: ServerConfigFile[]
}

/** The plugin's options after validation: the shared build options plus Vite's own. */
export interface ResolvedPreencodeViteOptions extends ResolvedBuildOptions {
  environments: (environment: PreencodeEnvironmentInfo) => boolean
  /** `serverConfigs` with absolute paths. */
  serverConfigs: ServerConfigFile[]
}

/** Vite's backend-integration files (`build.manifest`, `build.ssrManifest`): read from disk by a server, never sent to browsers. */
const VITE_METADATA_GLOB = '.vite/**'

/**
 * Validates the plugin's options once; fails naming the option and what it accepts.
 * `backendFiles` are output paths Vite writes for a server to read (a custom `build.manifest`
 * name): they stay uncompressed, like everything under `.vite/`.
 */
export function resolvePreencodeViteOptions(
  options: PreencodeViteOptions,
  root: string,
  backendFiles: string[] = [],
): ResolvedPreencodeViteOptions {
  const { report, compress, deltas, force, rest } = resolveBuildOptions(
    options,
    { root, component: 'vite', exclude: [VITE_METADATA_GLOB, ...backendFiles] },
    ['environments', 'serverConfigs'],
  )
  return {
    report,
    compress,
    deltas,
    force,
    environments: resolveEnvironments(rest.environments),
    serverConfigs: resolveServerConfigFiles(rest.serverConfigs ?? [], root, 'vite'),
  }
}

function resolveEnvironments(
  environments: PreencodeViteOptions['environments'],
): ResolvedPreencodeViteOptions['environments'] {
  if (environments === undefined) return (environment) => environment.consumer === 'client'
  if (typeof environments === 'function') return environments
  if (Array.isArray(environments) && environments.every((name) => typeof name === 'string' && name !== '')) {
    const names = new Set(environments)
    return (environment) => names.has(environment.name)
  }
  throw userError(
    'vite',
    "`environments` must be an array of environment names (e.g. ['client']) or a function (environment) => boolean.",
  )
}

/**
 * The options for a folder that is served whole, Nitro's public output: Vite's backend files
 * there (`.vite/manifest.json`) are sent to whoever asks, like the rest, so they are compressed
 * too. Derived from the options resolved once.
 */
export function servedWhole(
  resolved: ResolvedPreencodeViteOptions,
  backendFiles: string[] = [],
): ResolvedPreencodeViteOptions {
  const ours = new Set<unknown>([VITE_METADATA_GLOB, ...backendFiles])
  const exclude = resolved.compress.exclude.filter((pattern) => !ours.has(pattern))
  return { ...resolved, compress: { ...resolved.compress, exclude } }
}

/** `build.manifest: 'assets.json'` and `build.ssrManifest: '...'` name files for a backend, not browsers. */
export function backendFiles(config: ResolvedConfig): string[] {
  return [config.build.manifest, config.build.ssrManifest]
    .filter((value): value is string => typeof value === 'string')
    .map((path) => path.replace(/^\.?\//, ''))
}
