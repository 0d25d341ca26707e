/**
 * What a framework changes in the plugin's work, as hooks its entry of the table carries
 * (`frameworks.ts`): the plugin calls them where it would otherwise act itself, and never asks
 * which framework it is in. One factory per moment the deployed folder is final.
 */
import { resolve } from 'node:path'
import type { Environment, Logger, ResolvedConfig, ViteBuilder } from 'vite'
import { builtClientDirs, nitroPublicDir } from './deployable.js'
import { holdExit } from './hold-exit.js'
import { cannotHandleWarning, frameworkWarning } from './messages.js'
import type { ResolvedPreencodeViteOptions } from './options.js'

/** One compression: the folders, the folder server configs describe, where messages go. */
export interface Compression {
  dirs: string[]
  siteDir: string
  environment?: string
  logger: Logger
  /** A folder served whole (Nitro's public output): Vite's backend files in it are compressed too. */
  whole?: boolean
}

/** What the hooks may use of the build they are in (`ViteBuild`). */
export interface FrameworkBuild {
  readonly config: ResolvedConfig
  readonly resolved: ResolvedPreencodeViteOptions
  /** When this build started: build info an earlier build left does not count. */
  readonly startedAt: number
  compress(compression: Compression): Promise<void>
  /** Warns once for the project (frameworks run several builds of it in one process). */
  warn(message: string): void
}

/** The folders an app build deploys, and whether they are served whole. */
export interface Deployable {
  dirs: string[]
  whole: boolean
}

/** A framework's hooks for one build; each optional, the plugin's own behaviour where absent. */
export interface FrameworkHooks {
  /** The plugin does nothing in this build (the framework has its own integration): the warning that says what to use. */
  standDown?: string
  /** The pages are written in Vite 7's `buildApp` step: before Vite 7 the plugin stands down. */
  needsBuildApp?: boolean
  /** The plugin runs in server environments too: their build writes the pages. */
  serverEnvironments?: boolean
  /** `writeBundle` of an environment, before its `closeBundle`. */
  written?(environment: Environment): void
  /** `closeBundle` without error: instead of compressing the environment's folders (or leaving them to `buildApp`). */
  closeEnvironment?(environment: Environment): Promise<void>
  /** The end of every `closeBundle`, error or not. */
  closed?(): void
  /** `buildApp`: the folders deployed, instead of the client environments' `outDir`s. */
  deployable?(builder: ViteBuilder): Promise<Deployable>
}

/** A framework's hooks, made for each build (they may keep that build's state). */
export type FrameworkTiming = (build: FrameworkBuild, framework: string) => FrameworkHooks

/** Never: the framework has its own integration (`instead`, as one would write it in its config). */
export function integration(instead: string): FrameworkTiming {
  return (_build, framework) => ({ standDown: frameworkWarning(framework, instead) })
}

/** After every environment and every framework step: a `buildApp` hook of `order: 'post'`. */
export const buildApp: FrameworkTiming = () => ({ needsBuildApp: true })

/**
 * As `buildApp`, but the deployed folder is Nitro's public output, read from Nitro's build info.
 * `required`: the framework does not point the client environments at it (Analog), so without
 * the build info the plugin stands down, naming the folder to compress.
 */
export function nitro(required?: { folder: string }): FrameworkTiming {
  return (build, framework) => ({
    needsBuildApp: true,
    async deployable(builder) {
      const publicDir = await nitroPublicDir(build.config.root, build.startedAt)
      if (publicDir) return { dirs: [publicDir], whole: true }
      // Nitro points the client environments' outDir at its public folder.
      if (!required) return { dirs: builtClientDirs(builder, build.resolved.environments), whole: true }
      const why = "Nitro's build info (nitro.json) was not found"
      build.warn(cannotHandleWarning(framework, why, required.folder, build.config.root))
      return { dirs: [], whole: true }
    },
  })
}

/**
 * The client folder a build left to the server build of the same project that runs after it, by
 * project root. Process-wide on purpose: the two are separate `vite.build()` calls, each with
 * its own plugin instance (and React Router may run one server build per server bundle); the
 * next client build of the project replaces the entry.
 */
const clientFolders = new Map<string, string>()

/** How a framework with the `serverBuild` timing finds its pages. */
export interface ServerBuildPages {
  /** Where the server build wrote them; by default, the folder of the client build before it. */
  pages?: (config: ResolvedConfig) => string | undefined
  /** Where they are by default, for the line when the plugin cannot find them. */
  defaultFolder: string
  /** The process's exit waits from the server build's `writeBundle` until the pages are compressed (see `holdExit`). */
  holdsExit?: boolean
}

/**
 * At the end of a separate server build that writes the pages into the client's folder: the
 * client build leaves it to that one, which compresses it at its end, after writing the pages.
 */
export function serverBuild({ pages, defaultFolder, holdsExit = false }: ServerBuildPages): FrameworkTiming {
  return (build, framework) => {
    let releaseExit: (() => void) | undefined
    return {
      serverEnvironments: true,
      written(environment) {
        if (holdsExit && environment.config.consumer === 'server') releaseExit ??= holdExit()
      },
      async closeEnvironment(environment) {
        const root = build.config.root
        if (environment.config.consumer !== 'server') {
          clientFolders.set(root, resolve(root, environment.config.build.outDir))
          return
        }
        const dir = pages ? pages(environment.config) : clientFolders.get(root)
        if (dir) await build.compress({ dirs: [dir], siteDir: dir, logger: environment.logger })
        else {
          const why = 'its plugin did not say where the pages are'
          build.warn(cannotHandleWarning(framework, why, defaultFolder, root))
        }
      },
      closed() {
        releaseExit?.()
        releaseExit = undefined
      },
    }
  }
}
