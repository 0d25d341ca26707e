import { resolveBuildOptions, type BuildOptions, type ResolvedBuildOptions } from '@preencode/core'
import { resolveServerConfigFiles, type ServerConfigFile } from '@preencode/server-config'

export type { ServerConfigFile }

/** Options of the Nuxt module: every compression option, how the report is printed, and server configs. */
export interface PreencodeNuxtOptions extends BuildOptions {
  /**
   * Server configs to generate from the manifest after each build, each to `path` (relative to
   * the project root, or absolute): into the output (`.output/public/.htaccess` for shared hosting) or to a
   * file you commit (`deploy/nginx.conf`). nginx and Caddy need `root`, the site's path on the server.
   * @default []
   * @example [{ server: 'apache', path: '.output/public/.htaccess' }, { server: 'nginx', flavor: 'stock', root: '/srv/site', path: 'deploy/site.nginx.conf' }]
   */
  serverConfigs?: ServerConfigFile[]
}

/** The options after validation: the shared build options plus the configs with absolute paths. */
export interface ResolvedPreencodeNuxtOptions extends ResolvedBuildOptions {
  serverConfigs: ServerConfigFile[]
}

/** Validates the options once; fails naming the option and what it accepts. */
export function resolvePreencodeNuxtOptions(options: PreencodeNuxtOptions, root: string): ResolvedPreencodeNuxtOptions {
  const { rest, ...build } = resolveBuildOptions(options, { root, component: 'nuxt' }, ['serverConfigs'])
  // Every shared build option goes through as resolved (a field listed by hand was once dropped).
  return { ...build, serverConfigs: resolveServerConfigFiles(rest.serverConfigs ?? [], root, 'nuxt') }
}
