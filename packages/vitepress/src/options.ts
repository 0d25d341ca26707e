import { resolveBuildOptions, type BuildOptions, type ResolvedBuildOptions } from '@preencode/core'
import { resolveServerConfigFiles, type ServerConfigFile } from '@preencode/server-config'

export type { ServerConfigFile }

/** Options of the VitePress `buildEnd` hook: every compression option, how the report is printed, and server configs. */
export interface PreencodeVitePressOptions extends BuildOptions {
  /**
   * Server configs to generate from the manifest after each build, each to `path` (relative to
   * where the build runs, or absolute): into the output (`.vitepress/dist/.htaccess` for shared hosting) or to a
   * file you commit (`deploy/nginx.conf`). nginx and Caddy need `root`, the site's path on the server.
   * @default []
   * @example [{ server: 'apache', path: '.vitepress/dist/.htaccess' }, { server: 'nginx', flavor: 'stock', root: '/srv/site', path: 'deploy/site.nginx.conf' }]
   */
  serverConfigs?: ServerConfigFile[]
}

/** The options after validation: the shared build options plus the configs with absolute paths. */
export interface ResolvedPreencodeVitePressOptions extends ResolvedBuildOptions {
  serverConfigs: ServerConfigFile[]
}

/** Validates the options once; fails naming the option and what it accepts. */
export function resolvePreencodeVitePressOptions(
  options: PreencodeVitePressOptions,
  root: string,
): ResolvedPreencodeVitePressOptions {
  const { rest, ...build } = resolveBuildOptions(options, { root, component: 'vitepress' }, ['serverConfigs'])
  // Every shared build option goes through as resolved (a field listed by hand was once dropped).
  return { ...build, serverConfigs: resolveServerConfigFiles(rest.serverConfigs ?? [], root, 'vitepress') }
}
