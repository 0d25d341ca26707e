import { resolve } from 'node:path'
import {
  resolveCompressOptions,
  userError,
  type CompressOptions,
  type ResolvedCompressOptions,
} from '@preencode/core'
import { isServer, SERVERS, type ServerConfigTarget } from '@preencode/server-config'

/** What `environments` may be given as a function: the environment's name and who consumes it. */
export interface PreencodeEnvironmentInfo {
  name: string
  consumer: 'client' | 'server'
}

/** Options of `preencode()`: every compression option, plus how the plugin reports and where it runs. */
export interface PreencodeViteOptions extends CompressOptions {
  /**
   * Print the compression report through Vite's logger after each build: `true` for the table,
   * `'json'` for one line of JSON (the `CompressReport`), `false` for nothing.
   * @default true
   */
  report?: boolean | 'json'
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

/** A server config to write: the generator's options plus where the file goes. */
export type ServerConfigFile = ServerConfigTarget & {
  /** Where to write it, relative to Vite's root (or absolute). */
  path: string
}

/** The plugin's own options after validation; the compression options are resolved by core. */
export interface ResolvedPreencodeViteOptions {
  report: boolean | 'json'
  environments: (environment: PreencodeEnvironmentInfo) => boolean
  compress: ResolvedCompressOptions
  /** What is passed to `compressDirectory`: the user's options with the cache made absolute. */
  compressOptions: CompressOptions
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
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw userError('vite', `preencode() takes an options object; got ${options === null ? 'null' : typeof options}.`)
  }
  const { report = true, environments, serverConfigs = [], ...compressOptions } = options
  if (report !== true && report !== false && report !== 'json') {
    throw userError('vite', `\`report\` is ${JSON.stringify(report)}; it accepts true, false or 'json'.`)
  }
  const compress = resolveCompressOptions(compressOptions, root)
  return {
    report,
    environments: resolveEnvironments(environments),
    serverConfigs: resolveServerConfigs(serverConfigs, root),
    compress,
    compressOptions: {
      ...compressOptions,
      cache: compress.cacheDir,
      exclude: [...compress.exclude, VITE_METADATA_GLOB, ...backendFiles],
    },
  }
}

function resolveEnvironments(environments: PreencodeViteOptions['environments']): ResolvedPreencodeViteOptions['environments'] {
  if (environments === undefined) return (environment) => environment.consumer === 'client'
  if (typeof environments === 'function') return environments
  if (Array.isArray(environments) && environments.every((name) => typeof name === 'string' && name !== '')) {
    const names = new Set(environments)
    return (environment) => names.has(environment.name)
  }
  throw userError('vite', '`environments` must be an array of environment names (e.g. [\'client\']) or a function (environment) => boolean.')
}


function resolveServerConfigs(files: unknown, root: string): ServerConfigFile[] {
  if (!Array.isArray(files)) throw userError('vite', '`serverConfigs` must be an array of { server, path, ...options }.')
  return files.map((file: unknown, index) => {
    const where = `serverConfigs[${index}]`
    if (file === null || typeof file !== 'object') throw userError('vite', `\`${where}\` must be an object like { server: 'nginx', root: '/srv/site', path: 'deploy/nginx.conf' }.`)
    const { server, path } = file as { server?: unknown; path?: unknown }
    if (!isServer(server)) throw userError('vite', `\`${where}.server\` is ${JSON.stringify(server)}; accepted: ${SERVERS.join(', ')}.`)
    if (typeof path !== 'string' || path === '') throw userError('vite', `\`${where}.path\` must name the file to write, e.g. 'deploy/${server}.conf'.`)
    if ((server === 'nginx' || server === 'caddy') && typeof (file as { root?: unknown }).root !== 'string') {
      throw userError('vite', `\`${where}\` (${server}) needs \`root\`: the absolute path of the site on the server, e.g. '/srv/www/site'.`)
    }
    return { ...(file as ServerConfigFile), path: resolve(root, path) }
  })
}
