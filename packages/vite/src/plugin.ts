import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { isPreencodeError, MANIFEST_FILENAME } from '@preencode/core'
import { createPreencodeMiddleware } from '@preencode/server-config'
import type { Plugin } from 'vite'
import {
  backendFiles,
  type PreencodeViteOptions,
  type ResolvedPreencodeViteOptions,
  resolvePreencodeViteOptions,
} from './options.js'
import { ViteBuild } from './vite-build.js'

/**
 * Pre-compresses the site a Vite build deploys (gzip, brotli and zstd beside each file) once it
 * is final: in `closeBundle` of a plain build; after every environment and framework step
 * (`buildApp`, order post) of an app build; where Qwik City writes its pages. Each run ends with
 * a look at the folder as a server would see it. The work itself is core's build runner.
 */
export function preencode(options: PreencodeViteOptions = {}): Plugin {
  // This build's state: made again in every `configResolved`, so two builds with one instance
  // (two `build()` calls, a tool that builds several projects) share nothing.
  let build: ViteBuild

  return {
    name: 'preencode:vite',
    // Builds compress; `vite preview` serves the variants through the same middleware as Node.
    apply: (_config, env) => env.command === 'build' || env.isPreview === true,
    enforce: 'post',

    configResolved(config) {
      let resolved: ResolvedPreencodeViteOptions
      try {
        resolved = resolvePreencodeViteOptions(options, config.root, backendFiles(config))
      } catch (error) {
        if (isPreencodeError(error) && error.isUserError) this.error(error.message)
        throw error
      }
      // `this.meta.viteVersion` exists from Vite 7, the version that calls plugins' `buildApp`.
      const hasBuildAppHook =
        typeof (this as { meta?: { viteVersion?: unknown } } | undefined)?.meta?.viteVersion === 'string'
      build = new ViteBuild(config, resolved, hasBuildAppHook)
    },

    configurePreviewServer(server) {
      // Added directly (not in a returned post hook) so it runs before Vite's own static
      // handler; paths the manifest does not list fall through to it.
      const dir = resolve(build.config.root, build.config.build.outDir)
      if (existsSync(join(dir, MANIFEST_FILENAME))) server.middlewares.use(createPreencodeMiddleware(dir))
    },

    applyToEnvironment(environment) {
      // Qwik City's SSG, React Router's prerender: pages written in the server build, compressed at its end.
      if (build.hooks.serverEnvironments && environment.config.consumer === 'server') return true
      return build.resolved.environments({ name: environment.name, consumer: environment.config.consumer })
    },

    writeBundle(outputOptions) {
      // Standing down touches nothing else (VitePress 1 runs Vite 5, which has no `this.environment`).
      if (build.standDown) return
      build.noteOutput(this.environment, outputOptions)
    },

    closeBundle: {
      // Last, and alone: files other plugins write in their own closeBundle (or copy there) must
      // be on disk in their final form before we read them. Rolldown runs closeBundle hooks in
      // sequence already; Rollup needs `sequential` to wait for the parallel ones before us.
      order: 'post',
      sequential: true,
      async handler(error?: Error) {
        if (build.standDown) return
        try {
          await build.closeEnvironment(this.environment, error)
        } catch (failure) {
          if (isPreencodeError(failure) && failure.isUserError) this.error(failure.message)
          throw failure
        }
      },
    },

    buildApp: {
      // After every other step of the app build: frameworks write their pages in their own
      // `buildApp` hooks (Nitro's is order post too, and comes first: this plugin is enforce post).
      order: 'post',
      async handler(builder) {
        if (build.standDown || build.config.build.watch) return
        await build.finishApp(builder)
      },
    },
  }
}
