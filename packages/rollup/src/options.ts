import { type BuildOptions, type ResolvedBuildOptions, resolveBuildOptions } from '@preencode/core'
import { resolveServerConfigFiles, type ServerConfigFile } from '@preencode/server-config'

export type { ServerConfigFile }

/** Options of `preencode()` for Rollup: every compression option, plus how it reports. */
export interface PreencodeRollupOptions extends BuildOptions {
  /**
   * Server configs to generate from the manifest after each build, each to `path` (relative
   * to the working directory): into the output (`dist/.htaccess` for shared hosting) or to a
   * file you commit (`deploy/nginx.conf`). Written when the build has one output directory.
   * nginx and Caddy need `root`, the site's path on the server.
   * @default []
   */
  serverConfigs?: ServerConfigFile[]
}

/** The plugin's options after validation: the shared build options plus Rollup's own. */
export interface ResolvedPreencodeRollupOptions extends ResolvedBuildOptions {
  /** `serverConfigs` with absolute paths. */
  serverConfigs: ServerConfigFile[]
}

/**
 * Validates once; fails naming the option and what it accepts. Rollup has no project root:
 * `cwd` plays that part (a relative `cache` and the default cache are found from it).
 */
export function resolvePreencodeRollupOptions(
  options: PreencodeRollupOptions,
  cwd: string = process.cwd(),
): ResolvedPreencodeRollupOptions {
  const { report, compress, deltas, force, rest } = resolveBuildOptions(options, { root: cwd, component: 'rollup' }, [
    'serverConfigs',
  ])
  return {
    report,
    compress,
    deltas,
    force,
    serverConfigs: resolveServerConfigFiles(rest.serverConfigs ?? [], cwd, 'rollup'),
  }
}
