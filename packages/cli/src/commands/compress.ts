import {
  ALL_FORMATS,
  appendGithubStepSummary,
  CODECS,
  compressDirectory,
  createProgress,
  formatBudgetMarkdown,
  formatBudgetTable,
  formatReport,
  userError,
  type CompressReport,
  type Format,
} from '@preencode/core'
import type { LoadedConfig } from '@preencode/deploy'
import { defineCommand } from 'citty'
import { assertKnownFlags, createLogger, printJson, wantsColor } from '../cli-utils.js'
import { compressOptionsFrom } from '../compress-options.js'

const args = {
  dir: { type: 'positional', description: 'The build output folder to compress in place', required: true },
  formats: { type: 'string', description: `Comma-separated formats: ${ALL_FORMATS.join(',')} (default: all)`, valueHint: 'list' },
  ...levelArgs(),
  threshold: { type: 'string', description: 'Leave files smaller than this many bytes alone (default 1024)', valueHint: 'bytes' },
  include: { type: 'string', description: 'Compress only files matching these globs (repeatable, comma-separated); default: the compressible types', valueHint: 'glob' },
  exclude: { type: 'string', description: 'Never compress files matching these globs (repeatable, comma-separated)', valueHint: 'glob' },
  concurrency: { type: 'string', description: 'Files compressed at once (default: the number of cores)', valueHint: 'n' },
  'keep-originals': { type: 'boolean', default: true, description: 'Keep the uncompressed originals', negativeDescription: 'Keep only the variants (gzip always); servers decode for clients without gzip' },
  cache: { type: 'boolean', default: true, description: 'Reuse compressed bytes from the persistent cache', negativeDescription: 'Compress everything afresh, without reading or writing the cache' },
  'cache-dir': { type: 'string', description: "Cache directory (default: the site's project's node_modules/.cache/preencode, else ~/.cache/preencode)", valueHint: 'dir' },
  json: { type: 'boolean', description: 'Print only the report, as JSON' },
  quiet: { type: 'boolean', description: 'Print nothing but errors' },
} as const

/** One `--level-<format>` flag per entry of the codec table. */
function levelArgs(): Record<`level-${Format}`, { type: 'string'; description: string; valueHint: string }> {
  const entries = ALL_FORMATS.map((format) => {
    const { levels: [min, max], defaultLevel } = CODECS[format]
    return [`level-${format}`, { type: 'string', description: `${format} level, ${min}-${max} (default ${defaultLevel})`, valueHint: 'n' }] as const
  })
  return Object.fromEntries(entries) as Record<`level-${Format}`, { type: 'string'; description: string; valueHint: string }>
}

/**
 * `preencode compress <dir>`: what the plugins do, for any static-site generator's output.
 * Options also come from the `compress` section of `preencode.config.*` in the working
 * directory; flags win. Size budgets there are checked after the run: any file over budget
 * exits 1 (and in GitHub Actions the table goes to the job summary).
 */
export const compressCommand = defineCommand({
  meta: { name: 'compress', description: 'Write .gz/.br/.zst beside every compressible file of a folder, and its manifest' },
  args,
  async run({ args: parsed, rawArgs }) {
    assertKnownFlags(rawArgs, args)
    const quiet = parsed.quiet === true
    const json = parsed.json === true
    const progress = createProgress(process.stderr)
    // Ctrl-C stops queued work and lets running files finish, so nothing is left half-written
    // (writes are atomic anyway); a second Ctrl-C finds no listener and ends the process at once.
    const controller = new AbortController()
    const interrupt = (): void => {
      progress.done()
      controller.abort(userError('cli', 'Interrupted. Files finished so far are complete; run again to finish (the cache keeps the work done).'))
    }
    process.once('SIGINT', interrupt)
    let report: CompressReport
    let loaded: LoadedConfig | undefined
    try {
      // Loaded after the Ctrl-C handler is in place (and only by this command): the deploy
      // package is the heaviest import of the CLI.
      const { loadConfig } = await import('@preencode/deploy')
      loaded = await loadConfig(process.cwd())
      const options = compressOptionsFrom(parsed, rawArgs, loaded && { path: loaded.path, options: loaded.config.compress })
      report = (await compressDirectory(parsed.dir, options, {
        logger: createLogger({ quiet: quiet || json }),
        signal: controller.signal,
        ...(quiet ? {} : { onProgress: progress.update }),
      })).report
      progress.done()
    } finally {
      process.removeListener('SIGINT', interrupt)
    }
    if (json) printJson(report)
    else if (!quiet) process.stdout.write(`${formatReport(report, { color: wantsColor(process.stdout) })}\n`)
    if (report.budgets) {
      await appendGithubStepSummary(formatBudgetMarkdown(report.budgets))
      if (!report.budgets.ok) {
        // The table is in the report above; with --json or --quiet it goes to stderr instead.
        if (json || quiet) process.stderr.write(`${formatBudgetTable(report.budgets)}\n`)
        const { failures, unmatched } = report.budgets
        const what = [failures.length > 0 ? `${failures.length} files over budget` : '', unmatched.length > 0 ? `${unmatched.length} budgets match no file` : ''].filter(Boolean).join(', ')
        throw userError('cli', `Size budgets failed: ${what} (see the table; budgets are set in ${loaded?.path ?? 'the config file'}).`, { code: 'OVER_BUDGET' })
      }
    }
  },
})
