/**
 * The body of every build integration's `closeBundle` (Vite, Rollup, framework integrations):
 * compress the directories a build wrote, report, and write the server configs, so that every
 * integration behaves the same in watch mode, with colour, and with its cache and configs.
 */
import { basename, join, relative } from 'node:path'
import type { ResolvedBuildOptions } from './build-options.js'
import { onceCacheWarning } from './cache.js'
import { compressDirectory, type CompressLogger } from './compress-directory.js'
import type { Manifest } from './manifest.js'
import { isInsideDirectory, outermostDirectories } from './paths.js'
import { enforceBudgets } from './enforce-budgets.js'
import { renderHtmlReport } from './html-report.js'
import { formatReport } from './report.js'
import { writeFileAtomically } from './write.js'
import { formatDeltaReport, type DeltaReport } from './delta-report.js'
import { preparePageDictionary } from './page-dictionary.js'
import { writeDeltas } from './write-deltas.js'
import { detectSidecarIgnoringHost, sidecarsSkippedMessage } from './sidecar-hosts.js'

/** Where a build's messages go: the bundler's logger. */
export interface BuildLogger extends CompressLogger {
  error(message: string): void
}

/** Stream-like: what `wantsColor` needs to know about where text goes. */
export interface ColorStream {
  isTTY?: boolean | undefined
}

export interface BuildRunnerInit {
  options: ResolvedBuildOptions
  /** The project root; report headings and written config paths are shown relative to it. */
  root: string
  /**
   * Writes the site's server configs from its manifest; returns the paths whose text changed.
   * The plugins pass `serverConfigWriter()` from `@preencode/server-config`.
   * @default no server configs
   */
  writeServerConfigs?: ((manifest: Manifest) => Promise<string[]>) | undefined
}

/** One build's output, as the integration saw it being written. */
export interface BuildOutput {
  /** Absolute directories the build wrote; nested ones are compressed once, from the outer one. */
  dirs: readonly string[]
  /**
   * The directory the server configs describe (Vite's `build.outDir`); with a single directory,
   * that one.
   * @default undefined
   */
  siteDir?: string | undefined
  /** The bundler's environment (`client`, `ssr`); named in the report when not `client`. */
  environment?: string | undefined
  /** Watch mode: a failure is logged and the watcher keeps going; otherwise it is thrown. */
  watch: boolean
  logger: BuildLogger
  /** Whether the report table may use colour; see `wantsColor`. */
  color: boolean
}

export interface BuildRunner {
  /** Compresses one build's output; runs after any earlier call has finished (watch rebuilds overlap). */
  run(output: BuildOutput): Promise<void>
}

/** Colour only on a terminal, and never with `NO_COLOR` (no-color.org), in CI or on a dumb terminal. */
export function wantsColor(stream: ColorStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR && !env.CI && env.TERM !== 'dumb'
}

export function createBuildRunner(init: BuildRunnerInit): BuildRunner {
  /** Compressions run one after another: bundlers in watch mode do not wait for closeBundle. */
  let queue: Promise<void> = Promise.resolve()
  return {
    async run(output) {
      const dirs = outermostDirectories([...output.dirs])
      if (dirs.length === 0) return
      // On a host that ignores sidecars the build writes none (nor their manifest and configs).
      const host = init.options.force ? undefined : detectSidecarIgnoringHost()
      if (host) return output.logger.warn(sidecarsSkippedMessage(host, '`force: true`'))
      const run = queue.then(() => compressAll(init, output, dirs))
      queue = run.catch(() => {})
      try {
        await run
      } catch (failure) {
        // In watch mode nobody awaits closeBundle: a throw would be an unhandled rejection and
        // end the watcher. Say it and keep watching; the next rebuild tries again.
        if (!output.watch) throw failure
        output.logger.error(`[preencode] ${failure instanceof Error ? failure.message : String(failure)}`)
      }
    },
  }
}

async function compressAll(init: BuildRunnerInit, output: BuildOutput, dirs: string[]): Promise<void> {
  const { options, root } = init
  const { logger } = output
  const run = {
    logger: onceCacheWarning({
      info: (message: string) => {
        if (options.report === true || options.report === 'html') logger.info(message)
      },
      warn: (message: string) => logger.warn(message),
    }),
  }
  for (const dir of dirs) {
    // The page dictionary's link goes into the pages before they are compressed.
    const deltas = options.deltas || undefined
    if (deltas?.pages) await preparePageDictionary(dir, deltas.pageDictionaryBytes)
    const { manifest, report } = await compressDirectory(dir, options.compress, run)
    let current = manifest
    if (init.writeServerConfigs && (dir === output.siteDir || dirs.length === 1)) {
      // A config written into the output (dist/.htaccess) is part of the site: the manifest must
      // list it (deploy ships it) and the config then names it too, so write, recompress (all
      // cache hits) and regenerate until nothing changes; the second pass is already stable.
      for (let pass = 0; pass < 3; pass++) {
        const changed = await init.writeServerConfigs(current)
        if (options.report === true || options.report === 'html')
          for (const path of changed) logger.info(`preencode: wrote ${relative(root, path)}`)
        if (!changed.some((path) => isInsideDirectory(path, dir))) break
        current = (await compressDirectory(dir, options.compress, run)).manifest
      }
    }
    // Last: every recompression above rewrites the manifest without deltas. The reports come
    // once the directory is final: whoever waits for them finds nothing still being written.
    let deltaReport: DeltaReport | undefined
    if (options.deltas) {
      const { report: deltas } = await writeDeltas(dir, current, options.deltas, {
        cacheDir: options.compress.cacheDir,
        cacheMaxBytes: options.compress.cacheMaxBytes,
        concurrency: options.compress.concurrency,
        levels: { brotli: options.compress.levels.brotli, zstd: options.compress.levels.zstd },
        logger: run.logger,
      })
      deltaReport = deltas
    }
    if (options.report === 'json') logger.info(JSON.stringify(report))
    else if (options.report)
      logger.info(`\n${heading(root, dir, dirs, output.environment)}${formatReport(report, { color: output.color })}`)
    if (deltaReport && options.report === 'json') logger.info(JSON.stringify({ deltas: deltaReport }))
    else if (deltaReport && options.report) logger.info(formatDeltaReport(deltaReport))
    if (options.report === 'html') {
      const file = join(root, htmlReportName(root, dir, dir === output.siteDir || dirs.length === 1))
      await writeFileAtomically(
        file,
        renderHtmlReport(current, { title: `preencode report: ${relative(root, dir) || basename(dir)}` }),
      )
      logger.info(`preencode: wrote ${relative(root, file)} (open it in a browser)`)
    }
    // A file over a size budget fails the build (the table is in the message); the output and
    // its server configs are complete first, so what grew can be looked at.
    await enforceBudgets(report, 'core')
  }
}

/** `preencode-report.html` for the site; `preencode-report.<folder>.html` for other outputs. */
function htmlReportName(root: string, dir: string, isSite: boolean): string {
  if (isSite) return 'preencode-report.html'
  return `preencode-report.${(relative(root, dir) || basename(dir)).replace(/[^\w.-]+/g, '-')}.html`
}

/** Which output a report is about, when that is not obvious (several outputs, a non-client environment). */
function heading(root: string, dir: string, dirs: string[], environment: string | undefined): string {
  if (dirs.length === 1 && (environment === undefined || environment === 'client')) return ''
  const where = environment && environment !== 'client' ? ` [${environment}]` : ''
  return `${relative(root, dir) || '.'}${where}\n`
}
