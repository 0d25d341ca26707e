import { dirname, relative, resolve } from 'node:path'
import { type BuildRunner, createBuildRunner, wantsColor } from '@preencode/core'
import { serverConfigWriter } from '@preencode/server-config'
import type { Environment, Logger, ResolvedConfig, ViteBuilder } from 'vite'
import { builtClientDirs, nitroPublicDir, serverBuildPagesDir } from './deployable.js'
import { lookAsServer } from './final-look.js'
import {
  cannotHandleWarning,
  DEFAULT_PAGES,
  type Framework,
  type FrameworkIntegration,
  frameworkWarning,
  recogniseBuild,
} from './frameworks.js'
import { holdExit } from './hold-exit.js'
import { buildAppRan, leaveToBuildApp } from './left-to-build-app.js'
import { backendFiles, type ResolvedPreencodeViteOptions, servedWhole } from './options.js'

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
 * What one instance of the Vite plugin knows about its build: the resolved config and options,
 * the framework, the folders written and compressed. The plugin's hooks call its methods in
 * lifecycle order: `configure` → `noteOutput` → `closeEnvironment` → `finishApp`.
 */
export class ViteBuild {
  config!: ResolvedConfig
  resolved!: ResolvedPreencodeViteOptions
  /** The runner for a Vite output, and the one for a folder served whole (see `servedWhole`). */
  private runners!: Record<'output' | 'whole', Run>
  /**
   * Output directories written since the last closeBundle, per environment (one per `output`
   * entry). Not reset in buildStart: Rolldown runs the build hooks again for each output of a
   * multi-output build, and only the last output's directory would be left.
   */
  private readonly outDirs = new Map<string, Set<string>>()
  /** The framework of this build, if preencode knows it. */
  framework: Framework | undefined
  /** Set where the plugin must do nothing: a framework with its own integration, or one it cannot handle here. */
  standDown = false
  /** Vite builds an app: `buildApp` runs after the environments are built (see `recogniseBuild`). */
  private appBuild = false
  /** Vite 7 and later call plugins' `buildApp` hooks. */
  private hasBuildAppHook = false
  /** When this build started: Nitro's build info from an earlier build does not count. */
  private startedAt = 0
  /** Folders `closeBundle` compressed in this build; `buildApp` looks at them again, never compresses them twice. */
  private readonly compressed = new Set<string>()
  /** Lets the process exit again: held during a server build that writes pages (see `holdExit`). */
  private releaseExit: (() => void) | undefined

  /** `configResolved`: keeps the config, recognises the build, makes the two runners. */
  configure(config: ResolvedConfig, resolved: ResolvedPreencodeViteOptions, hasBuildAppHook: boolean): void {
    this.config = config
    this.resolved = resolved
    this.startedAt = Date.now()
    this.hasBuildAppHook = hasBuildAppHook
    if (config.command === 'build') this.recognise()
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
    if (this.framework?.when === 'server-build' && environment.config.consumer === 'server')
      this.releaseExit ??= holdExit()
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
      if (this.framework?.when === 'server-build')
        return await this.atServerBuild(this.framework.framework, environment)
      if (this.deferred(environment)) {
        for (const dir of dirs)
          leaveToBuildApp(relative(this.config.root, dir) || '.', this.config.root, environment.logger)
        return
      }
      const siteDir = resolve(this.config.root, this.config.build.outDir)
      await this.compress({ dirs, siteDir, environment: environment.name, logger: environment.logger })
      for (const dir of dirs) this.compressed.add(dir)
    } finally {
      this.releaseExit?.()
      this.releaseExit = undefined
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
    buildAppRan()
    const { root, logger } = this.config
    for (const dir of (await this.deployable(builder)) ?? []) {
      if (this.compressed.has(dir))
        await lookAsServer({ dir, root, options: this.runners.output.options.compress, logger, atExit: true })
      else await this.compress({ dirs: [dir], siteDir: dir, logger, whole: this.framework?.when === 'nitro' })
    }
  }

  private warnOnce(message: string): void {
    if (warned.has(message)) return
    warned.add(message)
    this.config.logger.warn(message)
  }

  private async compress({ dirs, siteDir, environment, logger, whole = false }: Compression): Promise<void> {
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

  /**
   * `server-build` timing: the client build leaves its folder to the server build of the same
   * framework, which compresses it at its end, after writing the pages into it.
   */
  private async atServerBuild(name: string, environment: Environment): Promise<void> {
    const root = this.config.root
    if (environment.config.consumer !== 'server') {
      clientFolders.set(root, resolve(root, environment.config.build.outDir))
      return
    }
    const pages = serverBuildPagesDir(name, environment.config, clientFolders.get(root))
    if (pages) await this.compress({ dirs: [pages], siteDir: pages, logger: environment.logger })
    else
      this.warnOnce(
        cannotHandleWarning(name, 'its plugin did not say where the pages are', DEFAULT_PAGES[name] ?? 'dist', root),
      )
  }

  /** What this build is (framework, app build) and whether the plugin stands down; warns once. */
  private recognise(): void {
    const config = this.config
    const build = recogniseBuild(
      config.plugins.map((plugin) => plugin.name),
      config.builder,
    )
    const framework = build.framework
    this.framework = framework
    this.appBuild = build.app
    this.standDown = framework?.when === 'integration'
    if (framework?.instead) this.warnOnce(frameworkWarning(framework as FrameworkIntegration))
    if (framework && !this.hasBuildAppHook && (framework.when === 'build-app' || framework.when === 'nitro')) {
      this.standDown = true
      const outDir = relative(config.root, resolve(config.root, config.build.outDir)) || '.'
      const why = "it writes its pages in Vite 7's `buildApp` step, and this Vite has none"
      this.warnOnce(cannotHandleWarning(framework.framework, why, outDir, config.root))
    }
  }

  /** Whether `buildApp` (order post) compresses after this environment's closeBundle. */
  private deferred(environment: object): boolean {
    // In watch mode every rebuild ends in closeBundle; `buildApp` runs once, before the first.
    if (!this.hasBuildAppHook || this.config.build.watch || builtAfterBuildApp.has(environment)) return false
    return this.appBuild
  }

  /** The folders an app build deploys, once every environment and framework step is done. */
  private async deployable(builder: ViteBuilder): Promise<string[] | undefined> {
    const framework = this.framework
    if (framework?.when !== 'nitro') return builtClientDirs(builder, this.resolved.environments)
    const publicDir = await nitroPublicDir(this.config.root, this.startedAt)
    if (publicDir) return [publicDir]
    // Nitro points the client environments' outDir at its public folder; Analog does not.
    if (framework.framework !== 'Analog') return builtClientDirs(builder, this.resolved.environments)
    const why = "Nitro's build info (nitro.json) was not found"
    this.warnOnce(cannotHandleWarning(framework.framework, why, 'dist/analog/public', this.config.root))
    return undefined
  }
}
