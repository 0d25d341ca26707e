import {
  resolveCompressOptions,
  userError,
  type CompressOptions,
  type ResolvedCompressOptions,
} from '@preencode/core'

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
  // serverConfigs: reserved. The lead wires `@preencode/server-config` here (issue 3): which
  // server configs to write into the output or to paths the user commits.
}

/** The plugin's own options after validation; the compression options are resolved by core. */
export interface ResolvedPreencodeViteOptions {
  report: boolean | 'json'
  environments: (environment: PreencodeEnvironmentInfo) => boolean
  compress: ResolvedCompressOptions
  /** What is passed to `compressDirectory`: the user's options with the cache made absolute. */
  compressOptions: CompressOptions
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
  const { report = true, environments, ...compressOptions } = options
  if (report !== true && report !== false && report !== 'json') {
    throw userError('vite', `\`report\` is ${JSON.stringify(report)}; it accepts true, false or 'json'.`)
  }
  const compress = resolveCompressOptions(compressOptions, root)
  return {
    report,
    environments: resolveEnvironments(environments),
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

