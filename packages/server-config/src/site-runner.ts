// What every framework integration (Astro, SvelteKit, VitePress, Nuxt) does with its options
// and its finished site, in one place: resolve the build options and the server configs once,
// then run core's build runner over the folders the framework wrote, its logger adapted.
import {
  type BuildOptions,
  createBuildRunner,
  type ErrorComponent,
  type ResolvedBuildOptions,
  resolveBuildOptions,
  wantsColor,
} from '@preencode/core'
import { resolveServerConfigFiles, type ServerConfigFile, serverConfigWriter } from './config-files.js'

/** Options of a framework integration: every build option, and the server configs to write. */
export interface SiteOptions extends BuildOptions {
  /**
   * Server configs to generate from the manifest after each build, each to `path` (relative to
   * the project root, or absolute). nginx and Caddy need `root`, the site's path on the server.
   * @default []
   */
  serverConfigs?: ServerConfigFile[]
}

/** The options after validation: the shared build options plus the configs with absolute paths. */
export interface ResolvedSiteOptions extends ResolvedBuildOptions {
  serverConfigs: ServerConfigFile[]
}

/** A framework's logger; its methods are called as methods (`this` kept). */
export interface SiteLogger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

/** Returned by `createSiteRunner`: the resolved options and the run over a finished site. */
export interface SiteRunner {
  readonly options: ResolvedSiteOptions
  /**
   * Compresses the folders the framework wrote; `siteDir` is the one the server configs
   * describe. Throws what the build runner throws (a budget failure, a bad file).
   */
  run(dirs: readonly string[], siteDir: string | undefined, logger: SiteLogger): Promise<void>
}

/** Validates an integration's options once; fails naming the option and what it accepts. */
export function resolveSiteOptions(options: SiteOptions, root: string, component: ErrorComponent): ResolvedSiteOptions {
  const { rest, ...build } = resolveBuildOptions(options, { root, component }, ['serverConfigs'])
  // Every shared build option goes through as resolved (a field listed by hand was once dropped).
  return { ...build, serverConfigs: resolveServerConfigFiles(rest.serverConfigs ?? [], root, component) }
}

/**
 * Resolves `options` (relative paths from `root`) and sets up core's build runner with the
 * server-config writer: what an integration calls once, when its options are known.
 */
export function createSiteRunner(options: SiteOptions, root: string, component: ErrorComponent): SiteRunner {
  const resolved = resolveSiteOptions(options, root, component)
  const runner = createBuildRunner({
    options: resolved,
    root,
    writeServerConfigs: serverConfigWriter(resolved.serverConfigs),
  })
  return {
    options: resolved,
    async run(dirs, siteDir, logger) {
      await runner.run({
        dirs,
        siteDir,
        watch: false,
        logger: {
          info: (message) => logger.info(message),
          warn: (message) => logger.warn(message),
          error: (message) => logger.error(message),
        },
        color: wantsColor(process.stdout),
      })
    },
  }
}
