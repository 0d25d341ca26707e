import {
  ALL_FORMATS,
  appendGithubStepSummary,
  CODECS,
  compressDirectory,
  createProgress,
  detectSidecarIgnoringHost,
  formatBudgetMarkdown,
  formatBudgetTable,
  formatReport,
  onceCacheWarning,
  parseShard,
  preparePageDictionary,
  resolveCompressOptions,
  sidecarsSkippedMessage,
  userError,
  type CompressLogger,
  type CompressReport,
  type Format,
} from '@preencode/core'
import { defineCommand } from 'citty'
import { assertKnownFlags, createLogger, printJson, wantsColor } from '../cli-utils.js'
import { compressOptionsFrom } from '../compress-options.js'
import { loadConfig, type LoadedConfig } from '../config-file.js'
import { deltaArgs, resolveDeltaFlags, runDeltas } from './deltas.js'

const args = {
  dir: { type: 'positional', description: 'The build output folder to compress in place', required: true },
  formats: {
    type: 'string',
    description: `Comma-separated formats: ${ALL_FORMATS.join(',')} (default: all)`,
    valueHint: 'list',
  },
  ...levelArgs(),
  threshold: {
    type: 'string',
    description: 'Leave files smaller than this many bytes alone (default 1024)',
    valueHint: 'bytes',
  },
  include: {
    type: 'string',
    description:
      'Compress only files matching these globs (repeatable, comma-separated); default: the compressible types',
    valueHint: 'glob',
  },
  exclude: {
    type: 'string',
    description: 'Never compress files matching these globs (repeatable, comma-separated)',
    valueHint: 'glob',
  },
  concurrency: {
    type: 'string',
    description: 'Files compressed at once (default: the number of cores)',
    valueHint: 'n',
  },
  'keep-originals': {
    type: 'boolean',
    default: true,
    description: 'Keep the uncompressed originals',
    negativeDescription: 'Keep only the variants (gzip always); servers decode for clients without gzip',
  },
  cache: {
    type: 'boolean',
    default: true,
    description: 'Reuse compressed bytes from the persistent cache',
    negativeDescription: 'Compress everything afresh, without reading or writing the cache',
  },
  'cache-dir': {
    type: 'string',
    description:
      "Cache directory, or s3://bucket/prefix for a cache shared by CI runners (default: the site's project's node_modules/.cache/preencode, else ~/.cache/preencode)",
    valueHint: 'dir|s3-url',
  },
  endpoint: {
    type: 'string',
    description: 'Endpoint of an S3-compatible shared cache (MinIO, R2…); default $AWS_ENDPOINT_URL, else AWS',
    valueHint: 'url',
  },
  shard: {
    type: 'string',
    description:
      'Compress only share i of n (split by bytes) into the cache and write nothing; a final run without --shard assembles',
    valueHint: 'i/n',
  },
  ...deltaArgs,
  force: {
    type: 'boolean',
    description:
      'Write the variants even on a host that compresses on its own and ignores them (Netlify, Vercel, Cloudflare Pages)',
  },
  json: { type: 'boolean', description: 'Print only the report, as JSON' },
  quiet: { type: 'boolean', description: 'Print nothing but errors' },
} as const

/** One `--level-<format>` flag per entry of the codec table. */
function levelArgs(): Record<`level-${Format}`, { type: 'string'; description: string; valueHint: string }> {
  const entries = ALL_FORMATS.map((format) => {
    const {
      levels: [min, max],
      defaultLevel,
    } = CODECS[format]
    return [
      `level-${format}`,
      { type: 'string', description: `${format} level, ${min}-${max} (default ${defaultLevel})`, valueHint: 'n' },
    ] as const
  })
  return Object.fromEntries(entries) as Record<
    `level-${Format}`,
    { type: 'string'; description: string; valueHint: string }
  >
}

/**
 * `preencode compress <dir>`: what the plugins do, for any static-site generator's output.
 * Options also come from the `compress` section of `preencode.config.*` in the working
 * directory; flags win. Size budgets there are checked after the run: any file over budget
 * exits 1 (and in GitHub Actions the table goes to the job summary).
 */
export const compressCommand = defineCommand({
  meta: {
    name: 'compress',
    description: 'Write .gz/.br/.zst beside every compressible file of a folder, and its manifest',
  },
  args,
  async run({ args: parsed, rawArgs }) {
    assertKnownFlags(rawArgs, args)
    const quiet = parsed.quiet === true
    const json = parsed.json === true
    // The same rule as the plugins': on such a host nothing is written, and one line says why.
    const host = parsed.force === true ? undefined : detectSidecarIgnoringHost()
    if (host) {
      process.stderr.write(`${sidecarsSkippedMessage(host, '--force')}\n`)
      return
    }
    const progress = createProgress(process.stderr)
    // Ctrl-C stops queued work and lets running files finish, so nothing is left half-written
    // (writes are atomic anyway); a second Ctrl-C finds no listener and ends the process at once.
    const controller = new AbortController()
    const interrupt = (): void => {
      progress.done()
      controller.abort(
        userError(
          'cli',
          'Interrupted. Files finished so far are complete; run again to finish (the cache keeps the work done).',
        ),
      )
    }
    process.once('SIGINT', interrupt)
    let loaded: LoadedConfig | undefined
    try {
      loaded = await loadConfig(process.cwd())
      const options = compressOptionsFrom(
        parsed,
        rawArgs,
        loaded && { path: loaded.path, options: loaded.config.compress },
      )
      const shard = parsed.shard === undefined ? undefined : parseShard(String(parsed.shard))
      const resolved = resolveCompressOptions(options)
      const deltaOptions = shard ? undefined : resolveDeltaFlags(parsed, rawArgs)
      // The page dictionary's link goes into the pages before they are compressed.
      if (deltaOptions?.pages) await preparePageDictionary(parsed.dir, deltaOptions.pageDictionaryBytes)
      const logger = onceCacheWarning(quietInfo(createLogger({ quiet }), json))
      const { manifest, report } = await compressDirectory(parsed.dir, resolved, {
        logger,
        signal: controller.signal,
        ...(quiet ? {} : { onProgress: progress.update }),
        ...(shard ? { shard } : {}),
      })
      progress.done()
      if (shard) {
        // A shard wrote nothing into the site: deltas and the report belong to the assemble run.
        if (json) printJson(report)
        else if (!quiet)
          process.stdout.write(
            `shard ${shard.index}/${shard.count}: ${report.cache.misses} encoded into the cache, ${report.cache.hits} already there; nothing written to ${parsed.dir}. Run \`preencode compress\` without --shard, with the same cache, to assemble the site.\n`,
          )
        return
      }
      const deltas = deltaOptions && (await runDeltas(parsed.dir, manifest, resolved, deltaOptions, logger))
      if (json) printJson(deltas ? { ...report, deltas: deltas.report } : report)
      else if (!quiet)
        process.stdout.write(
          `${formatReport(report, { color: wantsColor(process.stdout) })}\n${deltas ? `${deltas.text}\n` : ''}`,
        )
      await checkBudgets(report, { json, quiet, configPath: loaded?.path })
    } finally {
      process.removeListener('SIGINT', interrupt)
    }
  },
})
/** --json keeps stdout for the report and drops notes, but warnings (a shared cache down) still reach stderr. */
function quietInfo(logger: CompressLogger, json: boolean): CompressLogger {
  return json ? { info() {}, warn: (message) => logger.warn(message) } : logger
}

/**
 * Size budgets from the config file: the verdict goes to the GitHub job summary (in Actions);
 * a failure exits 1. The table is in the report on stdout; with --json or --quiet, on stderr.
 */
async function checkBudgets(
  report: CompressReport,
  how: { json: boolean; quiet: boolean; configPath: string | undefined },
): Promise<void> {
  if (!report.budgets) return
  await appendGithubStepSummary(formatBudgetMarkdown(report.budgets))
  if (report.budgets.ok) return
  if (how.json || how.quiet) process.stderr.write(`${formatBudgetTable(report.budgets)}\n`)
  const { failures, unmatched } = report.budgets
  const what = [
    failures.length > 0 ? `${failures.length} files over budget` : '',
    unmatched.length > 0 ? `${unmatched.length} budgets match no file` : '',
  ]
    .filter(Boolean)
    .join(', ')
  throw userError(
    'cli',
    `Size budgets failed: ${what} (see the table; budgets are set in ${how.configPath ?? 'the config file'}).`,
    { code: 'OVER_BUDGET' },
  )
}
