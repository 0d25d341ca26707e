import { dirname, relative, resolve } from 'node:path'
import { type BuildRunner, createBuildRunner, wantsColor } from '@preencode/core'
import { serverConfigWriter } from '@preencode/server-config'
import type { Environment, ResolvedConfig, ViteBuilder } from 'vite'
import { builtClientDirs } from './deployable.js'
import { lookAsServer } from './final-look.js'
import { buildAppRan, leaveToBuildApp } from './folders-at-exit.js'
import type { Compression, Deployable, FrameworkBuild, FrameworkHooks } from './framework-hooks.js'
import { recogniseBuild } from './frameworks.js'
import { cannotHandleWarning, warnOncePerProject } from './messages.js'
import { backendFiles, type ResolvedPreencodeViteOptions, servedWhole } from './options.js'

/**
 * Environments of an app build whose `buildApp` reached preencode's hook before any was built
 * (Vite then builds them itself, after every hook): their own `closeBundle` compresses. Keyed by
 * the environment, as Vite's own plugins keep per-environment state: with `sharedPlugins: false`
 * each environment has its own plugin instance, not the one whose `buildApp` hook ran.
 */
const builtAfterBuildApp = new WeakSet<Environment>()

/** A runner and the options it was made with. */
interface Run {
  options: ResolvedPreencodeViteOptions
  runner: BuildRunner
}

/** Where Rollup/Rolldown wrote an output: `dir`, or the folder of `file`. */
interface OutputLocation {
  dir?: string
  file?: string
}

/**
 * One build of the Vite plugin: the resolved config and options, the framework's hooks, the
 * folders written and compressed. The plugin makes one in each `configResolved`, so nothing
 * carries over from an earlier build; its hooks call the methods in lifecycle order:
 * `noteOutput` → `closeEnvironment` → `finishApp`.
 */
export class ViteBuild implements FrameworkBuild {
  readonly startedAt = Date.now()
  /** What the framework of this build changes (nothing for a build preencode knows no framework of). */
  readonly hooks: FrameworkHooks
  /** Set where the plugin must do nothing: a framework with its own integration, or one it cannot handle here. */
  readonly standDown: boolean
  /** Vite builds an app: `buildApp` runs after the environments are built (see `recogniseBuild`). */
  private readonly appBuild: boolean
  /** The runner for a Vite output, and the one for a folder served whole (see `servedWhole`). */
  private readonly runners: Record<'output' | 'whole', Run>
  /**
   * Output directories written since the last closeBundle, per environment (one per `output`
   * entry). Not reset in buildStart: Rolldown runs the build hooks again for each output of a
   * multi-output build, and only the last output's directory would be left.
   */
  private readonly outDirs = new Map<string, Set<string>>()
  /** Folders `closeBundle` compressed in this build; `buildApp` looks at them again, never compresses them twice. */
  private readonly compressed = new Set<string>()

  /** `configResolved`: `hasBuildAppHook`, Vite 7 and later call plugins' `buildApp` hooks. */
  constructor(
    readonly config: ResolvedConfig,
    readonly resolved: ResolvedPreencodeViteOptions,
    private readonly hasBuildAppHook: boolean,
  ) {
    const kind =
      config.command === 'build'
        ? recogniseBuild(
            config.plugins.map((plugin) => plugin.name),
            config.builder,
            this,
          )
        : { hooks: {}, app: false, framework: undefined }
    this.hooks = kind.hooks
    this.appBuild = kind.app
    this.standDown = this.standsDown(kind.framework)
    const run = (options: ResolvedPreencodeViteOptions): Run => ({
      options,
      runner: createBuildRunner({
        options,
        root: config.root,
        writeServerConfigs: serverConfigWriter(options.serverConfigs),
      }),
    })
    this.runners = { output: run(resolved), whole: run(servedWhole(resolved, backendFiles(config))) }
  }

  /** `writeBundle`: remembers the folder an environment's output was written to. */
  noteOutput(environment: Environment, output: OutputLocation): void {
    this.hooks.written?.(environment)
    // Rolldown/Rollup give the directory actually written; `file` outputs write beside it.
    const dir = output.dir ?? (output.file ? dirname(output.file) : undefined)
    if (dir === undefined) return
    const key = environment.name
    this.outDirs.set(key, (this.outDirs.get(key) ?? new Set()).add(resolve(this.config.root, dir)))
  }

  /** `closeBundle`: compresses the environment's folders now, or leaves them to a later step. */
  async closeEnvironment(environment: Environment, error: Error | undefined): Promise<void> {
    const dirs = [...(this.outDirs.get(environment.name) ?? [])]
    this.outDirs.delete(environment.name)
    try {
      if (error) return
      if (this.hooks.closeEnvironment) return await this.hooks.closeEnvironment(environment)
      if (this.deferred(environment)) {
        for (const dir of dirs)
          leaveToBuildApp(environment, relative(this.config.root, dir) || '.', this.config.root, environment.logger)
        return
      }
      const siteDir = resolve(this.config.root, this.config.build.outDir)
      await this.compress({ dirs, siteDir, environment: environment.name, logger: environment.logger })
      for (const dir of dirs) this.compressed.add(dir)
    } finally {
      this.hooks.closed?.()
    }
  }

  /** `buildApp` (order post): compresses what the app build deploys, once it is all written. */
  async finishApp(builder: ViteBuilder): Promise<void> {
    const environments = Object.values(builder.environments)
    if (!environments.some((environment) => environment.isBuilt)) {
      // Vite builds them after this hook: each closeBundle compresses.
      for (const environment of environments) builtAfterBuildApp.add(environment)
      return
    }
    buildAppRan(environments)
    const { root, logger } = this.config
    const { dirs, whole }: Deployable = (await this.hooks.deployable?.(builder)) ?? {
      dirs: builtClientDirs(builder, this.resolved.environments),
      whole: false,
    }
    for (const dir of dirs) {
      if (this.compressed.has(dir))
        await lookAsServer({ dir, root, options: this.runners.output.options.compress, logger, atExit: true })
      else await this.compress({ dirs: [dir], siteDir: dir, logger, whole })
    }
  }

  /** Warns once for the project: frameworks load the Vite config once per build step. */
  warn(message: string): void {
    warnOncePerProject(this.config.logger, this.config.root, message)
  }

  /** Compresses `dirs` with the runner for them, then looks at each folder as a server would. */
  async compress({ dirs, siteDir, environment, logger, whole = false }: Compression): Promise<void> {
    const { options: used, runner } = this.runners[whole ? 'whole' : 'output']
    const root = this.config.root
    const print = (text: string, json: boolean): void => {
      // The report's first line names the folder; the runner names it itself when there are several.
      const named = dirs.length === 1 && (environment === undefined || environment === 'client')
      logger.info(json ? text : `\n${named ? `preencode: ${relative(root, dirs[0]!) || '.'}\n` : ''}${text}`)
    }
    const results = await runner.run({
      dirs,
      siteDir,
      environment,
      watch: Boolean(this.config.build.watch),
      logger,
      print,
      // Vite's logger prints info to stdout.
      color: wantsColor(process.stdout),
      // The look after the run compresses them, and names them in its one line.
      warnLate: false,
    })
    // Nothing was compressed (a host that ignores sidecars, a failure in watch mode): nothing to look at.
    if (results.length === 0) return
    const atExit = !this.config.build.watch
    for (const { report } of results)
      await lookAsServer({ dir: report.dir, root, options: used.compress, logger, late: report.late, atExit })
  }

  /** Whether the plugin does nothing in this build; says why, once. */
  private standsDown(framework: string | undefined): boolean {
    if (this.hooks.standDown) {
      this.warn(this.hooks.standDown)
      return true
    }
    if (framework === undefined || !this.hooks.needsBuildApp || this.hasBuildAppHook) return false
    const config = this.config
    const outDir = relative(config.root, resolve(config.root, config.build.outDir)) || '.'
    const why = "it writes its pages in Vite 7's `buildApp` step, and this Vite has none"
    this.warn(cannotHandleWarning(framework, why, outDir, config.root))
    return true
  }

  /** Whether `buildApp` (order post) compresses after this environment's closeBundle. */
  private deferred(environment: Environment): boolean {
    // In watch mode every rebuild ends in closeBundle; `buildApp` runs once, before the first.
    if (!this.hasBuildAppHook || this.config.build.watch || builtAfterBuildApp.has(environment)) return false
    return this.appBuild
  }
}
