import { resolve } from 'node:path'
import {
  ALL_FORMATS,
  CODECS,
  createBuildRunner,
  createProgress,
  type Format,
  parseShard,
  resolveBuildOptions,
  userError,
} from '@preencode/core'
import { defineCommand } from 'citty'
import { compressOptionsFrom } from '../options/compress.js'
import { loadConfig } from '../options/config-file.js'
import { deltaArgs, deltasFromFlags } from '../options/deltas.js'
import { assertKnownFlags } from '../options/flags.js'
import { createLogger, wantsColor } from '../output.js'

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
      {
        type: 'string',
        description: `${format} level, ${min}-${max} or max${format === 'gzip' ? ' (zopfli-class, slow: see docs/performance.md)' : ''} (default ${defaultLevel})`,
        valueHint: 'n',
      },
    ] as const
  })
  return Object.fromEntries(entries) as Record<
    `level-${Format}`,
    { type: 'string'; description: string; valueHint: string }
  >
}

/**
 * `preencode compress <dir>`: what the plugins do, for any static-site generator's output, by
 * the same pipeline (`resolveBuildOptions`, `createBuildRunner`). Options also come from the
 * `compress` section of `preencode.config.*` in the working directory; flags win. Size budgets
 * there are checked after the run: any file over budget exits 1 (and in GitHub Actions the table
 * goes to the job summary).
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
    try {
      const loaded = await loadConfig(process.cwd())
      const { options: compress, label } = compressOptionsFrom(
        parsed,
        rawArgs,
        loaded && { path: loaded.path, options: loaded.config.compress },
      )
      const shard = parsed.shard === undefined ? undefined : parseShard(String(parsed.shard), (key) => `--${key}`)
      const root = process.cwd()
      const options = resolveBuildOptions(
        {
          ...compress,
          // --json: stdout holds the report only; --quiet: nothing but errors.
          report: json ? 'json' : !quiet,
          deltas: deltasFromFlags(parsed, rawArgs),
          force: parsed.force === true,
        },
        { root, component: 'cli', label, deltasOff: 'pass --no-deltas' },
      )
      const logger = createLogger({ quiet })
      const runner = createBuildRunner({ options, root, component: 'cli', label, budgetsSource: loaded?.path })
      await runner.run({
        dirs: [resolve(parsed.dir)],
        watch: false,
        // Warnings (a shared cache down) reach stderr even with --json.
        logger: { ...logger, error: (message) => logger.warn(message) },
        print: (text) => {
          progress.done()
          process.stdout.write(`${text}\n`)
        },
        color: wantsColor(process.stdout),
        signal: controller.signal,
        ...(quiet ? {} : { onProgress: progress.update }),
        ...(shard ? { shard } : {}),
      })
    } finally {
      progress.done()
      process.removeListener('SIGINT', interrupt)
    }
  },
})
