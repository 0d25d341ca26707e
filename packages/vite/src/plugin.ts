import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { compressDirectory, enforceBudgets, formatReport, isInsideDirectory, isPreencodeError, outermostDirectories, MANIFEST_FILENAME, writeFileAtomically, type Manifest } from '@preencode/core'
import { createPreencodeMiddleware, serverConfig } from '@preencode/server-config'
import type { Logger, Plugin, ResolvedConfig } from 'vite'
import { resolvePreencodeViteOptions, type PreencodeViteOptions, type ResolvedPreencodeViteOptions } from './options.js'

/**
 * Pre-compresses every client output of a Vite build (gzip, brotli and zstd beside each file)
 * once every other plugin has written, so the variants hold the final bytes.
 */
export function preencode(options: PreencodeViteOptions = {}): Plugin {
  let config: ResolvedConfig
  let resolved: ResolvedPreencodeViteOptions
  /**
   * Output directories written since the last closeBundle, per environment (one per `output`
   * entry; keyed so a plugin instance shared between environments keeps them apart). Not reset
   * in buildStart: Rolldown runs the build hooks again for each output of a multi-output build,
   * and only the last output's directory would be left.
   */
  const outDirs = new Map<string, Set<string>>()
  /** Compressions run one after another: in watch mode Vite does not wait for closeBundle. */
  let queue: Promise<void> = Promise.resolve()

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
    },

    applyToEnvironment(environment) {
      return resolved.environments({ name: environment.name, consumer: environment.config.consumer })
    },

    writeBundle(outputOptions) {
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
        const dirs = outermostDirectories([...(outDirs.get(this.environment.name) ?? [])])
        outDirs.delete(this.environment.name)
        if (error || dirs.length === 0) return
        const { logger, name: environmentName } = this.environment
        const run = queue.then(() => compressAll(dirs, resolved, config, logger, environmentName))
        queue = run.catch(() => {})
        try {
          await run
        } catch (failure) {
          // In watch mode nobody awaits this hook: a throw would be an unhandled rejection and
          // end the watcher. Say it and keep watching; the next rebuild tries again.
          if (config.build.watch) {
            logger.error(`[preencode] ${failure instanceof Error ? failure.message : String(failure)}`)
            return
          }
          if (isPreencodeError(failure) && failure.isUserError) this.error(failure.message)
          throw failure
        }
      },
    },
  }
}

async function compressAll(
  dirs: string[],
  resolved: ResolvedPreencodeViteOptions,
  config: ResolvedConfig,
  logger: Logger,
  environmentName: string | undefined,
): Promise<void> {
  const run = {
    logger: {
      info: (message: string) => { if (resolved.report === true) logger.info(message) },
      warn: (message: string) => logger.warn(message),
    },
  }
  const mainDir = resolve(config.root, config.build.outDir)
  for (const dir of dirs) {
    const { manifest, report } = await compressDirectory(dir, resolved.compressOptions, run)
    if (resolved.report === 'json') logger.info(JSON.stringify(report))
    else if (resolved.report) logger.info(`\n${heading(dir, dirs, config, environmentName)}${formatReport(report, { color: wantsColor() })}`)
    if (resolved.serverConfigs.length > 0 && (dir === mainDir || dirs.length === 1)) {
      // A config written into the output (dist/.htaccess) is part of the site: the manifest must
      // list it (deploy ships it) and the config then names it too, so write, recompress (all
      // cache hits) and regenerate until nothing changes; the second pass is already stable.
      let current = manifest
      for (let pass = 0; pass < 3; pass++) {
        const changed = await writeServerConfigs(current, resolved, config, logger)
        if (!changed.some((path) => isInsideDirectory(path, dir))) break
        current = (await compressDirectory(dir, resolved.compressOptions, run)).manifest
      }
    }
    // A file over a size budget fails the build (the table is in the message); the output and
    // its server configs are complete first, so what failed can be looked at.
    await enforceBudgets(report, 'vite')
  }
}

/** Writes each configured server config whose text changed (atomically); returns those paths. */
async function writeServerConfigs(manifest: Manifest, resolved: ResolvedPreencodeViteOptions, config: ResolvedConfig, logger: Logger): Promise<string[]> {
  const written: string[] = []
  for (const { path, ...target } of resolved.serverConfigs) {
    const text = serverConfig(manifest, target)
    if ((await readFile(path, 'utf8').catch(() => undefined)) === text) continue
    await mkdir(dirname(path), { recursive: true })
    await writeFileAtomically(path, text)
    written.push(path)
    if (resolved.report === true) logger.info(`preencode: wrote ${target.server} config ${relative(config.root, path)}`)
  }
  return written
}

/** Which output a report is about, when that is not obvious (several outputs, a non-client environment). */
function heading(dir: string, dirs: string[], config: ResolvedConfig, environmentName: string | undefined): string {
  if (dirs.length === 1 && (environmentName === undefined || environmentName === 'client')) return ''
  const where = environmentName && environmentName !== 'client' ? ` [${environmentName}]` : ''
  return `${relative(config.root, dir) || '.'}${where}\n`
}

function wantsColor(): boolean {
  return process.stdout.isTTY === true && !process.env.CI && !process.env.NO_COLOR
}



/** `build.manifest: 'assets.json'` and `build.ssrManifest: '...'` name files for a backend, not browsers. */
function backendFiles(config: ResolvedConfig): string[] {
  return [config.build.manifest, config.build.ssrManifest]
    .filter((value): value is string => typeof value === 'string')
    .map((path) => path.replace(/^\.?\//, ''))
}
