import { existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { createBuildRunner, isPreencodeError, wantsColor, MANIFEST_FILENAME, type BuildRunner } from '@preencode/core'
import { createPreencodeMiddleware, serverConfigWriter } from '@preencode/server-config'
import type { Environment, Logger, Plugin, ResolvedConfig, ViteBuilder } from 'vite'
import { builtClientDirs, nitroPublicDir, serverBuildPagesDir } from './deployable.js'
import { lookAsServer } from './final-look.js'
import { holdExit } from './hold-exit.js'
import { buildAppRan, leaveToBuildApp } from './left-to-build-app.js'
import {
  cannotHandleWarning,
  DEFAULT_PAGES,
  frameworkWarning,
  recogniseBuild,
  type Framework,
  type FrameworkIntegration,
} from './frameworks.js'
import {
  backendFiles,
  resolvePreencodeViteOptions,
  servedWhole,
  type PreencodeViteOptions,
  type ResolvedPreencodeViteOptions,
} from './options.js'

/** Warnings already given in this process (frameworks load the Vite config once per build step). */
const warned = new Set<string>()

/**
 * Environments of an app build whose `buildApp` reached preencode's hook before any was built
 * (Vite then builds them itself, after every hook): their own `closeBundle` compresses. Kept per
 * process: with `sharedPlugins: false` each environment has its own plugin instance.
 */
const builtAfterBuildApp = new WeakSet<object>()

/**
 * The client folder of a build that left it to a later server build of the same process (React
 * Router builds the client, then the server, with `vite.build()`), by project root.
 */
const clientFolders = new Map<string, string>()

/** One compression: the folders, the folder server configs describe, where messages go. */
interface Compression {
  dirs: string[]
  siteDir: string
  environment?: string
  logger: Logger
  /** A folder served whole (Nitro's public output): Vite's backend files in it are compressed too. */
  whole?: boolean
}

/**
 * Pre-compresses the site a Vite build deploys (gzip, brotli and zstd beside each file) once it
 * is final: in `closeBundle` of a plain build; after every environment and framework step
 * (`buildApp`, order post) of an app build; where Qwik City writes its pages. Each run ends with
 * a look at the folder as a server would see it. The work itself is core's build runner.
 */
export function preencode(options: PreencodeViteOptions = {}): Plugin {
  let config: ResolvedConfig
  let resolved: ResolvedPreencodeViteOptions
  /** The runner for a Vite output, and the one for a folder served whole (see `servedWhole`). */
  let runners: Record<'output' | 'whole', { options: ResolvedPreencodeViteOptions; runner: BuildRunner }>
  /**
   * Output directories written since the last closeBundle, per environment (one per `output`
   * entry). Not reset in buildStart: Rolldown runs the build hooks again for each output of a
   * multi-output build, and only the last output's directory would be left.
   */
  const outDirs = new Map<string, Set<string>>()
  /** The framework of this build, if preencode knows it. */
  let framework: Framework | undefined
  /** Set where the plugin must do nothing: a framework with its own integration, or one it cannot handle here. */
  let standDown = false
  /** Vite builds an app: `buildApp` runs after the environments are built (see `recogniseBuild`). */
  let appBuild = false
  /** Vite 7 and later call plugins' `buildApp` hooks. */
  let hasBuildAppHook = false
  /** When this build started: Nitro's build info from an earlier build does not count. */
  let startedAt = 0
  /** Folders `closeBundle` compressed in this build; `buildApp` looks at them again, never compresses them twice. */
  const compressed = new Set<string>()
  /** Lets the process exit again: held during a server build that writes pages (see `holdExit`). */
  let releaseExit: (() => void) | undefined

  const warnOnce = (message: string): void => {
    if (warned.has(message)) return
    warned.add(message)
    config.logger.warn(message)
  }

  async function compress({ dirs, siteDir, environment, logger, whole = false }: Compression): Promise<void> {
    const { options: used, runner } = runners[whole ? 'whole' : 'output']
    const print = (text: string, json: boolean): void => {
      // The report's first line names the folder; the runner names it itself when there are several.
      const named = dirs.length === 1 && (environment === undefined || environment === 'client')
      logger.info(json ? text : `\n${named ? `preencode: ${relative(config.root, dirs[0]!) || '.'}\n` : ''}${text}`)
    }
    const results = await runner.run({
      dirs,
      siteDir,
      environment,
      watch: Boolean(config.build.watch),
      logger,
      print,
      // Vite's logger prints info to stdout.
      color: wantsColor(process.stdout),
    })
    // Nothing was compressed (a host that ignores sidecars, a failure in watch mode): nothing to look at.
    if (results.length === 0) return
    for (const dir of dirs) await lookAsServer({ dir, root: config.root, options: used.compress, logger })
  }

  /**
   * `server-build` timing: the client build leaves its folder to the server build of the same
   * framework, which compresses it at its end, after writing the pages into it.
   */
  async function atServerBuild(name: string, environment: Environment): Promise<void> {
    if (environment.config.consumer !== 'server') {
      clientFolders.set(config.root, resolve(config.root, environment.config.build.outDir))
      return
    }
    const pages = serverBuildPagesDir(name, environment.config, clientFolders.get(config.root))
    if (pages) await compress({ dirs: [pages], siteDir: pages, logger: environment.logger })
    else
      warnOnce(
        cannotHandleWarning(
          name,
          'its plugin did not say where the pages are',
          DEFAULT_PAGES[name] ?? 'dist',
          config.root,
        ),
      )
  }

  /** What this build is (framework, app build) and whether the plugin stands down; warns once. */
  function recognise(): void {
    const build = recogniseBuild(
      config.plugins.map((plugin) => plugin.name),
      config.builder,
    )
    framework = build.framework
    appBuild = build.app
    standDown = framework?.when === 'integration'
    if (framework?.instead) warnOnce(frameworkWarning(framework as FrameworkIntegration))
    if (framework && !hasBuildAppHook && (framework.when === 'build-app' || framework.when === 'nitro')) {
      standDown = true
      const outDir = relative(config.root, resolve(config.root, config.build.outDir)) || '.'
      const why = "it writes its pages in Vite 7's `buildApp` step, and this Vite has none"
      warnOnce(cannotHandleWarning(framework.framework, why, outDir, config.root))
    }
  }

  /** Whether `buildApp` (order post) compresses after this environment's closeBundle. */
  function deferred(environment: object): boolean {
    // In watch mode every rebuild ends in closeBundle; `buildApp` runs once, before the first.
    if (!hasBuildAppHook || config.build.watch || builtAfterBuildApp.has(environment)) return false
    return appBuild
  }

  /** The folders an app build deploys, once every environment and framework step is done. */
  async function deployable(builder: ViteBuilder): Promise<string[] | undefined> {
    if (framework?.when !== 'nitro') return builtClientDirs(builder, resolved.environments)
    const publicDir = await nitroPublicDir(config.root, startedAt)
    if (publicDir) return [publicDir]
    // Nitro points the client environments' outDir at its public folder; Analog does not.
    if (framework.framework !== 'Analog') return builtClientDirs(builder, resolved.environments)
    warnOnce(
      cannotHandleWarning(
        framework.framework,
        "Nitro's build info (nitro.json) was not found",
        'dist/analog/public',
        config.root,
      ),
    )
    return undefined
  }

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
      startedAt = Date.now()
      // `this.meta.viteVersion` exists from Vite 7, the version that calls plugins' `buildApp`.
      hasBuildAppHook =
        typeof (this as { meta?: { viteVersion?: unknown } } | undefined)?.meta?.viteVersion === 'string'
      if (config.command === 'build') recognise()
      const runner = (options: ResolvedPreencodeViteOptions) => ({
        options,
        runner: createBuildRunner({
          options,
          root: config.root,
          writeServerConfigs: serverConfigWriter(options.serverConfigs),
        }),
      })
      runners = { output: runner(resolved), whole: runner(servedWhole(resolved, backendFiles(config))) }
    },

    configurePreviewServer(server) {
      // Added directly (not in a returned post hook) so it runs before Vite's own static
      // handler; paths the manifest does not list fall through to it.
      const dir = resolve(config.root, config.build.outDir)
      if (existsSync(join(dir, MANIFEST_FILENAME))) server.middlewares.use(createPreencodeMiddleware(dir))
    },

    applyToEnvironment(environment) {
      // Qwik City's SSG, React Router's prerender: pages written in the server build, compressed at its end.
      if (framework?.when === 'server-build' && environment.config.consumer === 'server') return true
      return resolved.environments({ name: environment.name, consumer: environment.config.consumer })
    },

    writeBundle(outputOptions) {
      // Standing down touches nothing else (VitePress 1 runs Vite 5, which has no `this.environment`).
      if (standDown) return
      if (framework?.when === 'server-build' && this.environment.config.consumer === 'server')
        releaseExit ??= holdExit()
      // Rolldown/Rollup give the directory actually written; `file` outputs write beside it.
      const dir = outputOptions.dir ?? (outputOptions.file ? dirname(outputOptions.file) : undefined)
      if (dir === undefined) return
      const key = this.environment.name
      outDirs.set(key, (outDirs.get(key) ?? new Set()).add(resolve(config.root, dir)))
    },

    closeBundle: {
      // Last, and alone: files other plugins write in their own closeBundle (or copy there) must
      // be on disk in their final form before we read them. Rolldown runs closeBundle hooks in
      // sequence already; Rollup needs `sequential` to wait for the parallel ones before us.
      order: 'post',
      sequential: true,
      async handler(error?: Error) {
        if (standDown) return
        const environment = this.environment
        const dirs = [...(outDirs.get(environment.name) ?? [])]
        outDirs.delete(environment.name)
        const logger = environment.logger
        try {
          if (error) return
          if (framework?.when === 'server-build') return await atServerBuild(framework.framework, environment)
          if (deferred(environment)) {
            for (const dir of dirs) leaveToBuildApp(relative(config.root, dir) || '.', config.root, logger)
            return
          }
          await compress({
            dirs,
            siteDir: resolve(config.root, config.build.outDir),
            environment: environment.name,
            logger,
          })
          for (const dir of dirs) compressed.add(dir)
        } catch (failure) {
          if (isPreencodeError(failure) && failure.isUserError) this.error(failure.message)
          throw failure
        } finally {
          releaseExit?.()
          releaseExit = undefined
        }
      },
    },

    buildApp: {
      // After every other step of the app build: frameworks write their pages in their own
      // `buildApp` hooks (Nitro's is order post too, and comes first: this plugin is enforce post).
      order: 'post',
      async handler(builder) {
        if (standDown || config.build.watch) return
        const environments = Object.values(builder.environments)
        if (!environments.some((environment) => environment.isBuilt)) {
          // Vite builds them after this hook: each closeBundle compresses.
          for (const environment of environments) builtAfterBuildApp.add(environment)
          return
        }
        buildAppRan()
        const folders = await deployable(builder)
        for (const dir of folders ?? []) {
          if (compressed.has(dir))
            await lookAsServer({
              dir,
              root: config.root,
              options: runners.output.options.compress,
              logger: config.logger,
            })
          else await compress({ dirs: [dir], siteDir: dir, logger: config.logger, whole: framework?.when === 'nitro' })
        }
      },
    },
  }
}
