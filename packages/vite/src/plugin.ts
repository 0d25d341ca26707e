import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { createBuildRunner, isPreencodeError, wantsColor, MANIFEST_FILENAME, type BuildRunner } from '@preencode/core'
import { createPreencodeMiddleware, serverConfigWriter } from '@preencode/server-config'
import type { Plugin, ResolvedConfig } from 'vite'
import { detectFramework, frameworkWarning, type FrameworkIntegration } from './frameworks.js'
import { resolvePreencodeViteOptions, type PreencodeViteOptions, type ResolvedPreencodeViteOptions } from './options.js'

/** Frameworks already warned about in this process (each build step makes a new plugin instance). */
const warnedFrameworks = new Set<string>()

/**
 * Pre-compresses every client output of a Vite build (gzip, brotli and zstd beside each file)
 * once every other plugin has written, so the variants hold the final bytes. The work itself is
 * core's build runner, shared with the Rollup plugin.
 */
export function preencode(options: PreencodeViteOptions = {}): Plugin {
  let config: ResolvedConfig
  let resolved: ResolvedPreencodeViteOptions
  let runner: BuildRunner
  /**
   * Output directories written since the last closeBundle, per environment (one per `output`
   * entry; keyed so a plugin instance shared between environments keeps them apart). Not reset
   * in buildStart: Rolldown runs the build hooks again for each output of a multi-output build,
   * and only the last output's directory would be left.
   */
  const outDirs = new Map<string, Set<string>>()
  /** Set inside a framework that writes its pages after Vite (Astro, SvelteKit…): the plugin stands down. */
  let framework: FrameworkIntegration | undefined

  return {
    name: 'preencode',
    // Builds compress; `vite preview` serves the variants through the same middleware as Node.
    apply: (_config, env) => env.command === 'build' || env.isPreview === true,
    enforce: 'post',

    configResolved(resolvedConfig) {
      config = resolvedConfig
      try {
        resolved = resolvePreencodeViteOptions(options, config.root, backendFiles(config))
      } catch (error) {
        if (isPreencodeError(error) && error.isUserError) this.error(error.message)
        throw error
      }
      framework = config.command === 'build' ? detectFramework(config.plugins.map((plugin) => plugin.name)) : undefined
      // Frameworks load the Vite config once per build step (client, server, prerender): say it once.
      if (framework && !warnedFrameworks.has(framework.framework)) {
        warnedFrameworks.add(framework.framework)
        config.logger.warn(frameworkWarning(framework))
      }
      runner = createBuildRunner({
        options: resolved,
        root: config.root,
        writeServerConfigs: serverConfigWriter(resolved.serverConfigs),
      })
    },

    applyToEnvironment(environment) {
      return resolved.environments({ name: environment.name, consumer: environment.config.consumer })
    },

    writeBundle(outputOptions) {
      // Standing down touches nothing else (VitePress 1 runs Vite 5, which has no `this.environment`).
      if (framework) return
      // Rolldown/Rollup give the directory actually written; `file` outputs write beside it.
      const dir = outputOptions.dir ?? (outputOptions.file ? dirname(outputOptions.file) : undefined)
      if (dir === undefined) return
      const key = this.environment.name
      outDirs.set(key, (outDirs.get(key) ?? new Set()).add(resolve(config.root, dir)))
    },

    configurePreviewServer(server) {
      // Added directly (not in a returned post hook) so it runs before Vite's own static
      // handler; paths the manifest does not list fall through to it.
      const dir = resolve(config.root, config.build.outDir)
      if (existsSync(join(dir, MANIFEST_FILENAME))) server.middlewares.use(createPreencodeMiddleware(dir))
    },

    closeBundle: {
      // Last, and alone: files other plugins write in their own closeBundle (or copy there) must
      // be on disk in their final form before we read them. Rolldown runs closeBundle hooks in
      // sequence already; Rollup needs `sequential` to wait for the parallel ones before us.
      order: 'post',
      sequential: true,
      async handler(error?: Error) {
        if (framework) return
        const dirs = [...(outDirs.get(this.environment.name) ?? [])]
        outDirs.delete(this.environment.name)
        if (error) return
        try {
          await runner.run({
            dirs,
            siteDir: resolve(config.root, config.build.outDir),
            environment: this.environment.name,
            watch: Boolean(config.build.watch),
            logger: this.environment.logger,
            // Vite's logger prints info to stdout.
            color: wantsColor(process.stdout),
          })
        } catch (failure) {
          if (isPreencodeError(failure) && failure.isUserError) this.error(failure.message)
          throw failure
        }
      },
    },
  }
}

/** `build.manifest: 'assets.json'` and `build.ssrManifest: '...'` name files for a backend, not browsers. */
function backendFiles(config: ResolvedConfig): string[] {
  return [config.build.manifest, config.build.ssrManifest]
    .filter((value): value is string => typeof value === 'string')
    .map((path) => path.replace(/^\.?\//, ''))
}
