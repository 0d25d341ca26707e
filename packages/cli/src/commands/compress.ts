import { ALL_FORMATS, CODECS, compressDirectory, createProgress, defaultCacheDir, formatReport, isSharedCacheUrl, preparePageDictionary, parseShard, resolveCompressOptions, userError, type CompressLogger, type CompressOptions, type Format } from '@preencode/core'
import { defineCommand } from 'citty'
import { assertKnownFlags, createLogger, parseInteger, parseList, printJson, wantsColor } from '../cli-utils.js'
import { deltaArgs, resolveDeltaFlags, runDeltas } from './deltas.js'

const args = {
  dir: { type: 'positional', description: 'The build output folder to compress in place', required: true },
  formats: { type: 'string', description: `Comma-separated formats: ${ALL_FORMATS.join(',')} (default: all)`, valueHint: 'list' },
  ...levelArgs(),
  threshold: { type: 'string', description: 'Leave files smaller than this many bytes alone (default 1024)', valueHint: 'bytes' },
  'keep-originals': { type: 'boolean', default: true, description: 'Keep the uncompressed originals', negativeDescription: 'Keep only the variants (gzip always); servers decode for clients without gzip' },
  cache: { type: 'boolean', default: true, description: 'Reuse compressed bytes from the persistent cache', negativeDescription: 'Compress everything afresh, without reading or writing the cache' },
  'cache-dir': { type: 'string', description: "Cache directory, or s3://bucket/prefix for a cache shared by CI runners (default: the site's project's node_modules/.cache/preencode, else ~/.cache/preencode)", valueHint: 'dir|s3-url' },
  endpoint: { type: 'string', description: 'Endpoint of an S3-compatible shared cache (MinIO, R2…); default $AWS_ENDPOINT_URL, else AWS', valueHint: 'url' },
  shard: { type: 'string', description: 'Compress only share i of n (split by bytes) into the cache and write nothing; a final run without --shard assembles', valueHint: 'i/n' },
  ...deltaArgs,
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

/** `preencode compress <dir>`: what the plugins do, for any static-site generator's output. */
export const compressCommand = defineCommand({
  meta: { name: 'compress', description: 'Write .gz/.br/.zst beside every compressible file of a folder, and its manifest' },
  args,
  async run({ args: parsed, rawArgs }) {
    assertKnownFlags(rawArgs, args)
    const quiet = parsed.quiet === true
    const json = parsed.json === true
    const options = toCompressOptions(parsed)
    const progress = createProgress(process.stderr)
    // Ctrl-C stops queued work and lets running files finish, so nothing is left half-written
    // (writes are atomic anyway); a second Ctrl-C finds no listener and ends the process at once.
    const controller = new AbortController()
    const interrupt = (): void => {
      progress.done()
      controller.abort(userError('cli', 'Interrupted. Files finished so far are complete; run again to finish (the cache keeps the work done).'))
    }
    process.once('SIGINT', interrupt)
    try {
      const shard = parsed.shard === undefined ? undefined : parseShard(String(parsed.shard))
      const resolved = resolveCompressOptions(options)
      const deltaOptions = shard ? undefined : resolveDeltaFlags(parsed, rawArgs)
      // The page dictionary's link goes into the pages before they are compressed.
      if (deltaOptions?.pages) await preparePageDictionary(parsed.dir, deltaOptions.pageDictionaryBytes)
      const { manifest, report } = await compressDirectory(parsed.dir, resolved, {
        logger: quietInfo(createLogger({ quiet }), json),
        signal: controller.signal,
        ...(quiet ? {} : { onProgress: progress.update }),
        ...(shard ? { shard } : {}),
      })
      progress.done()
      if (shard) {
        // A shard wrote nothing into the site: deltas and the report belong to the assemble run.
        if (json) printJson(report)
        else if (!quiet) process.stdout.write(`shard ${shard.index}/${shard.count}: ${report.cache.misses} encoded into the cache, ${report.cache.hits} already there; nothing written to ${parsed.dir}. Run \`preencode compress\` without --shard, with the same cache, to assemble the site.\n`)
        return
      }
      const deltas = deltaOptions && (await runDeltas(parsed.dir, manifest, resolved, deltaOptions))
      if (json) printJson(deltas ? { ...report, deltas: deltas.report } : report)
      else if (!quiet) process.stdout.write(`${formatReport(report, { color: wantsColor(process.stdout) })}\n${deltas ? `${deltas.text}\n` : ''}`)
    } finally {
      process.removeListener('SIGINT', interrupt)
    }
  },
})

function toCompressOptions(parsed: { [flag in `level-${Format}`]?: string | undefined } & {
  dir: string
  formats?: string | undefined
  threshold?: string | undefined
  'keep-originals'?: boolean | undefined
  cache?: boolean | undefined
  'cache-dir'?: string | undefined
  endpoint?: string | undefined
}): CompressOptions {
  const options: CompressOptions = {}
  const formats = parseList(parsed.formats, 'formats')
  // Core validates the names, so the message lists the accepted formats in one place.
  if (formats) options.formats = formats as Format[]
  const levels: Partial<Record<Format, number>> = {}
  for (const format of ALL_FORMATS) {
    const level = parseInteger(parsed[`level-${format}`], `level-${format}`)
    if (level !== undefined) levels[format] = level
  }
  if (Object.keys(levels).length > 0) options.levels = levels
  const threshold = parseInteger(parsed.threshold, 'threshold')
  if (threshold !== undefined) options.threshold = threshold
  if (parsed['keep-originals'] === false) options.keepOriginals = false
  // Found from the site, not the working directory: run from anywhere, same cache.
  options.cache = parsed.cache === false ? false : (parsed['cache-dir'] ?? defaultCacheDir(parsed.dir))
  if (parsed.endpoint !== undefined) {
    if (!isSharedCacheUrl(options.cache)) throw userError('cli', '--endpoint is the endpoint of a shared cache: it needs --cache-dir s3://bucket/prefix.')
    options.cacheEndpoint = String(parsed.endpoint)
  }
  return options
}

/** --json keeps stdout for the report and drops notes, but warnings (a shared cache down) still reach stderr. */
function quietInfo(logger: CompressLogger, json: boolean): CompressLogger {
  return json ? { info() {}, warn: (message) => logger.warn(message) } : logger
}
