import {
  type ResolvedSiteOptions,
  resolveSiteOptions,
  type ServerConfigFile,
  type SiteOptions,
} from '@preencode/server-config'

export type { ServerConfigFile }

/** Options of the Astro integration: every compression option, how the report is printed, and server configs. */
export interface PreencodeAstroOptions extends SiteOptions {
  /**
   * Server configs to generate from the manifest after each build, each to `path` (relative to
   * the project root, or absolute): into the output (`dist/.htaccess` for shared hosting) or to a
   * file you commit (`deploy/nginx.conf`). nginx and Caddy need `root`, the site's path on the server.
   * @default []
   * @example [{ server: 'apache', path: 'dist/.htaccess' }, { server: 'nginx', flavor: 'stock', root: '/srv/site', path: 'deploy/site.nginx.conf' }]
   */
  serverConfigs?: ServerConfigFile[]
}

/** The options after validation: the shared build options plus the configs with absolute paths. */
export type ResolvedPreencodeAstroOptions = ResolvedSiteOptions

/** Validates the options once; fails naming the option and what it accepts. */
export function resolvePreencodeAstroOptions(
  options: PreencodeAstroOptions,
  root: string,
): ResolvedPreencodeAstroOptions {
  return resolveSiteOptions(options, root, 'astro')
}
