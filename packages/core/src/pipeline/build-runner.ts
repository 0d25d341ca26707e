/**
 * The one build pipeline of every entry point: the Vite, Rollup and framework integrations'
 * `closeBundle`, `preencode compress`, and the recompression of `deploy`, `config` and `verify`.
 * It compresses the directories a build wrote, writes the server configs and the delta updates,
 * renders the result (`renderBuildResult`) and checks the size budgets, so that every entry
 * point writes the same bytes and reports the same way, in watch mode, with colour, with its
 * cache and configs.
 */
import { basename, join, relative, resolve } from 'node:path'
import { onceCacheWarning } from '../cache/cache.js'
import { openRunCache } from '../cache/run-cache.js'
import { prepareAssetDictionary } from '../deltas/asset-dictionary.js'
import { versionSourceOf } from '../deltas/delta-candidates.js'
import { preparePageDictionary } from '../deltas/page-dictionary.js'
import { writeDeltas } from '../deltas/write-deltas.js'
import { type ErrorComponent, preencodeMessage } from '../errors.js'
import { withSiteLock } from '../fs/site-lock.js'
import { writeFileAtomically } from '../fs/write.js'
import type { Manifest } from '../manifest/manifest.js'
import type { ResolvedBuildOptions } from '../options/build-options.js'
import { KEY_LABEL, type OptionLabel } from '../options/option-label.js'
import { assertShardHasCache } from '../options/shard.js'
import { isInsideDirectory, outermostDirectories } from '../paths.js'
import { enforceBudgets } from '../report/enforce-budgets.js'
import { renderHtmlReport } from '../report/html-report.js'
import { type BuildResult, renderBuildResult } from '../report/render-result.js'
import { type CompressHooks, type CompressLogger, compressDirectory } from '../run/compress-directory.js'
import { detectSidecarIgnoringHost, sidecarsSkippedMessage } from './sidecar-hosts.js'

/** Where a build's messages go: the bundler's logger. */
export interface BuildLogger extends CompressLogger {
  error(message: string): void
}

/** Stream-like: what `wantsColor` needs to know about where text goes. */
export interface ColorStream {
  isTTY?: boolean | undefined
}

/** What a runner is made with: the resolved options, the project root, the server-config writer. */
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
  /** Names the entry point in a budget failure (`cli`, `vite`). @default 'core' */
  component?: ErrorComponent | undefined
  /** Where the size budgets were set, for a budget failure. @default 'the `budgets` option' */
  budgetsSource?: string | undefined
  /**
   * Write the variants on a host that ignores them too, whatever `options.force` says (the
   * recompression of a site already built there).
   * @default options.force
   */
  force?: boolean | undefined
  /**
   * Names an option in the runner's messages as the user set it (the CLI: `--force`), as the
   * resolvers' `label` does. @default `` `force: true` `` for `force`, else the key
   */
  label?: OptionLabel | undefined
}

/** One build's output, as the integration saw it being written. */
export interface BuildOutput extends Pick<CompressHooks, 'onProgress' | 'signal' | 'shard'> {
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
  /**
   * Where the report goes (`report: true | 'json' | 'html'`): the CLI's stdout.
   * @default logger.info, the table after an empty line
   */
  print?: ((text: string, json: boolean) => void) | undefined
  /** Whether the report table may use colour; see `wantsColor`. */
  color: boolean
  /**
   * Whether files skipped as late (`CompressReport.late`: they went away or changed while read)
   * get a warning line here; false where the caller names them itself (the Vite plugin, in its
   * one line at exit).
   * @default true
   */
  warnLate?: boolean | undefined
  /**
   * Whether the run's notes (configs written, the cache summary) reach `logger.info`.
   * @default options.report is `true` or `'html'`
   */
  notes?: boolean | undefined
}

/** Returned by `createBuildRunner`: runs one build's output through the pipeline. */
export interface BuildRunner {
  /**
   * Compresses one build's output; runs after any earlier call has finished (watch rebuilds
   * overlap). Resolves to one result per directory; none when nothing was compressed (no
   * directory, a host that ignores sidecars, a failure in watch mode).
   */
  run(output: BuildOutput): Promise<BuildResult[]>
}

/** Colour only on a terminal, and never with `NO_COLOR` (no-color.org), in CI or on a dumb terminal. */
export function wantsColor(stream: ColorStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR && !env.CI && env.TERM !== 'dumb'
}

/** How code names an option here: `` `force: true` `` (the runner only ever suggests turning it on). */
const codeLabel: OptionLabel = (key) => (key === 'force' ? '`force: true`' : KEY_LABEL(key))

/** The one pipeline of every entry point; see `BuildRunner.run`. Create one per integration (or command) and reuse it across rebuilds. */
export function createBuildRunner(init: BuildRunnerInit): BuildRunner {
  /** Compressions run one after another: bundlers in watch mode do not wait for closeBundle. */
  let queue: Promise<unknown> = Promise.resolve()
  return {
    async run(output) {
      const dirs = outermostDirectories([...output.dirs])
      if (dirs.length === 0) return []
      // On a host that ignores sidecars the build writes none (nor their manifest and configs).
      const host = (init.force ?? init.options.force) ? undefined : detectSidecarIgnoringHost()
      if (host) {
        output.logger.warn(sidecarsSkippedMessage(host, (init.label ?? codeLabel)('force')))
        return []
      }
      const run = queue.then(() => compressAll(init, output, dirs))
      queue = run.catch(() => {})
      try {
        return await run
      } catch (failure) {
        // In watch mode nobody awaits closeBundle: a throw would be an unhandled rejection and
        // end the watcher. Say it and keep watching; the next rebuild tries again.
        if (!output.watch) throw failure
        output.logger.error(preencodeMessage(failure instanceof Error ? failure.message : String(failure)))
        return []
      }
    },
  }
}

/** One `run` call's state, resolved once and handed to every step. */
interface BuildPass {
  init: BuildRunnerInit
  output: BuildOutput
  dirs: string[]
  /** The compression hooks: their logger shows notes only when `notes`, and carries the build's cache. */
  hooks: CompressHooks & { logger: CompressLogger }
  /** Where the report table goes. */
  print: (text: string, json: boolean) => void
  /** Whether notes (configs written, cache summary) reach the log. */
  notes: boolean
}

async function compressAll(init: BuildRunnerInit, output: BuildOutput, dirs: string[]): Promise<BuildResult[]> {
  const { logger } = output
  const notes = output.notes ?? (init.options.report === true || init.options.report === 'html')
  const runLogger = onceCacheWarning({
    info: (message: string) => {
      if (notes) logger.info(message)
    },
    warn: (message: string) => logger.warn(message),
  })
  // Before anything runs, with the build's names for the two settings.
  if (output.shard) assertShardHasCache(init.options.compress.cacheDir, init.label)
  // One cache for the whole build: every compression and the deltas read and fill it.
  const runCache = openRunCache(init.options.compress, runLogger)
  const pass: BuildPass = {
    init,
    output,
    dirs,
    hooks: {
      logger: runLogger,
      cache: runCache.cache,
      ...(output.onProgress ? { onProgress: output.onProgress } : {}),
      ...(output.signal ? { signal: output.signal } : {}),
      ...(output.shard ? { shard: output.shard } : {}),
    },
    // In a bundler's log the table starts on a line of its own.
    print: output.print ?? ((text, json) => logger.info(json ? text : `\n${text}`)),
    notes,
  }
  try {
    const results: BuildResult[] = []
    for (const dir of dirs) {
      const one = (): Promise<BuildResult> => compressOne(pass, dir)
      // The whole of one directory under one lock: configs and deltas follow its compression.
      results.push(await (output.shard ? one() : withSiteLock(dir, (message) => runLogger.info(message), one)))
    }
    return results
  } finally {
    const summary = runCache.summary()
    if (summary) runLogger.info(summary)
    runCache.cache.close?.()
  }
}

async function compressOne(pass: BuildPass, dir: string): Promise<BuildResult> {
  const { init, output, hooks } = pass
  const { options } = init
  // A shard encodes into the cache and writes nothing into the site: no configs, no deltas.
  const deltas = output.shard ? undefined : options.deltas || undefined
  // The dictionaries' links go into the pages before they are compressed.
  if (deltas?.assets)
    await prepareAssetDictionary(
      dir,
      deltas.maxDictionaryBytes,
      versionSourceOf(deltas, options.compress, resolve(dir)),
    )
  if (deltas?.pages) await preparePageDictionary(dir, deltas.pageDictionaryBytes)
  const { manifest, report } = await compressDirectory(dir, options.compress, hooks)
  if (report.late && output.warnLate !== false) {
    const named = `${report.late.slice(0, 5).join(', ')}${report.late.length > 5 ? ', …' : ''}`
    output.logger.warn(
      `${report.late.length} file(s) in ${dir} went away or changed while preencode read them (${named}): skipped, as another tool is still writing them. Compress again once it is done: \`preencode compress ${dir}\`.`,
    )
  }
  const current = await writeConfigs(pass, dir, manifest)
  // Last: every recompression above rewrites the manifest without deltas. The reports come
  // once the directory is final: whoever waits for them finds nothing still being written.
  const deltaReport = deltas
    ? (await writeDeltas(dir, current, deltas, { ...options.compress, cache: hooks.cache, logger: hooks.logger }))
        .report
    : undefined
  const result: BuildResult = {
    dir: report.dir,
    report,
    ...(deltaReport ? { deltas: deltaReport } : {}),
    ...(output.shard ? { shard: output.shard } : {}),
  }
  await reportResult(pass, dir, result, current)
  // A file over a size budget fails the build (the table is in the message); the output and
  // its server configs are complete first, so what grew can be looked at.
  await enforceBudgets(report, { component: init.component ?? 'core', source: init.budgetsSource })
  return result
}

/**
 * A config written into the output (dist/.htaccess) is part of the site: the manifest must list
 * it (deploy ships it) and the config then names it too, so write, recompress (all cache hits)
 * and regenerate until nothing changes; the second pass is already stable.
 */
async function writeConfigs(pass: BuildPass, dir: string, manifest: Manifest): Promise<Manifest> {
  const { init, output, dirs } = pass
  if (!init.writeServerConfigs || output.shard || (dir !== output.siteDir && dirs.length !== 1)) return manifest
  let current = manifest
  for (let round = 0; round < 3; round++) {
    const changed = await init.writeServerConfigs(current)
    for (const path of changed) pass.hooks.logger.info(`preencode: wrote ${relative(init.root, path)}`)
    if (!changed.some((path) => isInsideDirectory(path, dir))) break
    current = (await compressDirectory(dir, init.options.compress, pass.hooks)).manifest
  }
  return current
}

/** The report the options ask for: the table or JSON, and the HTML page beside the site. */
async function reportResult(pass: BuildPass, dir: string, result: BuildResult, manifest: Manifest): Promise<void> {
  const { init, output, dirs } = pass
  const { report } = init.options
  const { root } = init
  if (report === 'json') pass.print(renderBuildResult(result, { mode: 'json' }), true)
  else if (report)
    pass.print(
      `${heading(root, dir, dirs, output.environment)}${renderBuildResult(result, { mode: 'text', color: output.color })}`,
      false,
    )
  if (report !== 'html' || output.shard) return
  const file = join(root, htmlReportName(root, dir, dir === output.siteDir || dirs.length === 1))
  await writeFileAtomically(
    file,
    renderHtmlReport(manifest, { title: `preencode report: ${relative(root, dir) || basename(dir)}` }),
  )
  output.logger.info(`preencode: wrote ${relative(root, file)} (open it in a browser)`)
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
