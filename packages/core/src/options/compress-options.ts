import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { type LevelOption, levelNumber } from '../codecs/encode.js'
import { ALL_FORMATS, CODECS, FALLBACK_FORMAT, type Format, isFormat } from '../codecs/table.js'
import { userError } from '../errors.js'
import { globProblem } from '../fs/glob-check.js'
import { type CachePolicyOptions, type ResolvedCachePolicy, resolveCachePolicy } from '../http/cache-policy.js'
import { type ResolvedBudget, resolveBudgets, type SizeBudget } from './budgets.js'
import { defaultCacheDir } from './cache-dir.js'
import { KEY_LABEL, type OptionLabel } from './option-label.js'
import { peerFormatName, unknownOptionMessage } from './peer-options.js'
import { isSharedCacheUrl, parseSharedCacheUrl, type SharedCacheLocation } from './shared-cache-location.js'

/** Options of `compressDirectory`, the plugin and `preencode compress`. Every field is optional. */
export interface CompressOptions {
  /**
   * Which variants to write beside each compressible file.
   * @default ['brotli', 'zstd', 'gzip'] (every coding of the codec table)
   */
  formats?: Format[]
  /**
   * Level per format: gzip 1-9, brotli 0-11, zstd 1-22, or `'max'` for any. gzip `'max'` goes
   * beyond zlib: libdeflate's near-optimal parse (zopfli-class, about 5% smaller on JS and CSS,
   * 3% on HTML) at about 1 MB/s, paid once per file content thanks to the cache; see
   * docs/performance.md for when it is worth it. brotli `'max'` is 11, zstd `'max'` 22. zstd's
   * window stays at most 8 MiB at every level, because browsers refuse larger windows (RFC 9659).
   * @default { gzip: 9, brotli: 11, zstd: 19 }
   */
  levels?: Partial<Record<Format, LevelOption>>
  /**
   * Files smaller than this many bytes are left alone: the headers outweigh the saving.
   * @default 1024
   */
  threshold?: number
  /**
   * A variant is written only if it saves at least this fraction of the original (0-1).
   * A variant that is not smaller is never written, whatever this says.
   * @default 0.05
   */
  minSaving?: number
  /**
   * Which files to compress, as in Rollup's `createFilter`: globs or RegExps tested against the
   * path relative to the output folder (`assets/app.js`). When given, it is the whole set, and
   * the files it matches are compressed whatever their type. Not given: every file of a
   * compressible type (html, css, js, json, svg, xml, txt, wasm, fonts but woff2…).
   * @default every file of a compressible type
   * @example ['**\/*.{html,js,css}', /\.wasm$/]
   */
  include?: FilePattern | readonly FilePattern[]
  /**
   * Files never to compress (they stay in the manifest), as in Rollup's `createFilter`.
   * @default []
   */
  exclude?: FilePattern | readonly FilePattern[]
  /**
   * Keep the uncompressed originals on disk. With `false` only the variants stay (the gzip one
   * always), and the generated server configs decompress for clients that accept no encoding.
   * @default true
   */
  keepOriginals?: boolean
  /**
   * The persistent cache of compressed bytes: `false` to disable, a directory, or
   * `s3://bucket/prefix` for a cache shared by every machine that builds the site (a CI fleet):
   * entries are then looked up in the local default directory first, then in the bucket
   * (needs `@aws-sdk/client-s3`; credentials from the standard AWS chain). See docs/shared-cache.md.
   * @default the nearest project's `node_modules/.cache/preencode` (a folder with `package.json`
   * and `node_modules/`, at or above the working directory), else `$XDG_CACHE_HOME/preencode`
   * or `~/.cache/preencode`; never a new `node_modules`
   */
  cache?: boolean | string
  /**
   * The endpoint of an S3-compatible shared cache (MinIO, R2…), e.g. `http://127.0.0.1:9000`.
   * @default process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL ?? AWS
   */
  cacheEndpoint?: string
  /**
   * The cache is pruned (least recently used first) to at most this many bytes.
   * @default 268435456 (256 MiB)
   */
  cacheMaxBytes?: number
  /**
   * How many encodes run at once. Node's zlib runs them on libuv's threadpool, which has 4
   * threads unless `UV_THREADPOOL_SIZE` is set before the process starts: above 4 cores, set it.
   * @default os.availableParallelism()
   */
  concurrency?: number
  /** Cache-Control classes written into the manifest and the server configs. */
  cachePolicy?: CachePolicyOptions
  /**
   * Size budgets checked after each run, e.g. `[{ path: 'assets/*.js', format: 'brotli', max: '150 kB' }]`:
   * the report lists files over budget, the CLI exits 1 and the plugins fail the build.
   * @default []
   */
  budgets?: SizeBudget[]
}

/** A glob (`'assets/**\/*.js'`) or a RegExp tested against the path relative to the output folder. */
export type FilePattern = string | RegExp

/** `CompressOptions` validated, with every default filled in and paths made absolute: what `resolveCompressOptions` returns and `compressDirectory` takes. */
export interface ResolvedCompressOptions {
  formats: Format[]
  levels: Record<Format, number>
  threshold: number
  minSaving: number
  include: FilePattern[]
  exclude: FilePattern[]
  keepOriginals: boolean
  /** Absolute cache directory, or false when caching is off. */
  cacheDir: string | false
  /** The bucket behind the local cache when `cache` is `s3://…`; false otherwise. */
  sharedCache: SharedCacheLocation | false
  cacheMaxBytes: number
  concurrency: number
  cachePolicy: ResolvedCachePolicy
  budgets: ResolvedBudget[]
}

/** The defaults of `CompressOptions` (documented on each option). */
export const DEFAULT_COMPRESS_OPTIONS = Object.freeze({
  formats: [...ALL_FORMATS],
  levels: Object.fromEntries(ALL_FORMATS.map((format) => [format, CODECS[format].defaultLevel])) as Record<
    Format,
    number
  >,
  threshold: 1024,
  minSaving: 0.05,
  include: [],
  exclude: [],
  keepOriginals: true,
  cacheMaxBytes: 256 * 1024 * 1024,
} satisfies Partial<ResolvedCompressOptions>)

const OPTION_KEYS = new Set<string>([
  'formats',
  'levels',
  'threshold',
  'minSaving',
  'include',
  'exclude',
  'keepOriginals',
  'cache',
  'cacheEndpoint',
  'cacheMaxBytes',
  'concurrency',
  'cachePolicy',
  'budgets',
])

function fail(message: string): never {
  throw userError('options', message)
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

/**
 * Validates, merges with defaults and normalises. Fails naming the option (as `label` names it:
 * by default its key) and what it accepts. A relative `cache` and the default cache are found
 * from `cwd` (the project root).
 */
export function resolveCompressOptions(
  options: CompressOptions = {},
  cwd: string = process.cwd(),
  label: OptionLabel = KEY_LABEL,
): ResolvedCompressOptions {
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) fail(unknownOptionMessage(key, OPTION_KEYS, label))
  }
  const formats = resolveFormats(options.formats, label)
  const levels = resolveLevels(options.levels, label)
  const { threshold, minSaving, concurrency, cacheMaxBytes } = resolveNumbers(options, label)
  const include = resolvePatterns(options, 'include', label)
  const exclude = resolvePatterns(options, 'exclude', label)
  const { cacheDir, sharedCache } = resolveCacheLocation(options, cwd, label)
  const keepOriginals = options.keepOriginals ?? DEFAULT_COMPRESS_OPTIONS.keepOriginals
  if (typeof keepOriginals !== 'boolean') fail(`${label('keepOriginals')} must be true or false.`)
  if (!keepOriginals && !formats.includes(FALLBACK_FORMAT))
    fail(
      `${label('keepOriginals')} is false, which needs \`gzip\` in ${label('formats')}: servers decode the gzip variant for clients that accept no encoding.`,
    )
  return {
    formats: [...new Set(formats)],
    levels,
    threshold,
    minSaving,
    include,
    exclude,
    keepOriginals,
    cacheDir,
    sharedCache,
    cacheMaxBytes,
    concurrency,
    cachePolicy: resolveCachePolicy(options.cachePolicy),
    budgets: resolveBudgets(options.budgets, label),
  }
}

function resolveFormats(value: CompressOptions['formats'], label: OptionLabel): Format[] {
  const formats = value ?? [...DEFAULT_COMPRESS_OPTIONS.formats]
  if (!Array.isArray(formats) || formats.length === 0)
    fail(`${label('formats')} must be a non-empty array of ${ALL_FORMATS.join(', ')}.`)
  for (const format of formats) {
    if (!isFormat(format)) {
      const peer = peerFormatName(String(format))
      fail(
        `Unknown format \`${String(format)}\` in ${label('formats')}${peer ? ` (use \`${peer}\`)` : ''}. Accepted: ${ALL_FORMATS.join(', ')}.`,
      )
    }
  }
  return formats
}

function resolveLevels(value: CompressOptions['levels'], label: OptionLabel): Record<Format, number> {
  const levels = { ...DEFAULT_COMPRESS_OPTIONS.levels }
  for (const [format, level] of Object.entries(value ?? {})) {
    if (!isFormat(format))
      fail(`Unknown format \`${format}\` in ${label('levels')}. Accepted: ${ALL_FORMATS.join(', ')}.`)
    if (level === 'max') {
      levels[format] = levelNumber(format, level)
      continue
    }
    const [min, max] = CODECS[format].levels
    if (typeof level !== 'number' || !Number.isInteger(level) || level < min || level > max) {
      fail(
        `${label(`levels.${format}`)} is ${JSON.stringify(level) ?? String(level)}; ${format} accepts a whole number from ${min} to ${max}, or 'max'.`,
      )
    }
    levels[format] = level
  }
  return levels
}

function resolveNumbers(
  options: CompressOptions,
  label: OptionLabel,
): Pick<ResolvedCompressOptions, 'threshold' | 'minSaving' | 'concurrency' | 'cacheMaxBytes'> {
  const threshold = options.threshold ?? DEFAULT_COMPRESS_OPTIONS.threshold
  if (!isNonNegativeInteger(threshold))
    fail(`${label('threshold')} is ${String(threshold)}; it must be a whole number of bytes >= 0.`)
  const minSaving = options.minSaving ?? DEFAULT_COMPRESS_OPTIONS.minSaving
  if (typeof minSaving !== 'number' || !(minSaving >= 0 && minSaving < 1))
    fail(`${label('minSaving')} is ${String(minSaving)}; it must be a fraction from 0 to below 1.`)
  const concurrency = options.concurrency ?? availableParallelism()
  if (!isNonNegativeInteger(concurrency) || concurrency < 1)
    fail(`${label('concurrency')} is ${String(concurrency)}; it must be a whole number >= 1.`)
  const cacheMaxBytes = options.cacheMaxBytes ?? DEFAULT_COMPRESS_OPTIONS.cacheMaxBytes
  if (!isNonNegativeInteger(cacheMaxBytes))
    fail(`${label('cacheMaxBytes')} is ${String(cacheMaxBytes)}; it must be a whole number of bytes >= 0.`)
  return { threshold, minSaving, concurrency, cacheMaxBytes }
}

function resolvePatterns(options: CompressOptions, key: 'include' | 'exclude', label: OptionLabel): FilePattern[] {
  const value: unknown = options[key]
  const list: unknown[] = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]
  for (const p of list) {
    if (!((typeof p === 'string' && p !== '') || p instanceof RegExp))
      fail(
        `${label(key)} has ${JSON.stringify(p) ?? String(p)}; it takes globs ('assets/**/*.js') and RegExps (/\\.js$/), alone or in an array.`,
      )
  }
  for (const p of list) {
    const problem = typeof p === 'string' ? globProblem(p) : undefined
    if (problem)
      fail(
        `${label(key)} has the glob '${String(p)}', which has ${problem}: it would match no file. Close it, or escape the character with \\.`,
      )
  }
  return list as FilePattern[]
}

/** The local cache folder (also the shared cache's local layer) and the shared cache, if any. */
function resolveCacheLocation(
  options: CompressOptions,
  cwd: string,
  label: OptionLabel,
): Pick<ResolvedCompressOptions, 'cacheDir' | 'sharedCache'> {
  const cache = options.cache ?? true
  if (typeof cache !== 'boolean' && typeof cache !== 'string')
    fail(`${label('cache')} must be true, false, a directory path or s3://bucket/prefix.`)
  if (options.cacheEndpoint !== undefined && typeof options.cacheEndpoint !== 'string')
    fail(`${label('cacheEndpoint')} must be a URL string such as http://127.0.0.1:9000.`)
  const sharedCache = isSharedCacheUrl(cache) ? parseSharedCacheUrl(cache, options.cacheEndpoint) : false
  const cacheDir = cache === false ? false : cache === true || sharedCache ? defaultCacheDir(cwd) : resolve(cwd, cache)
  return { cacheDir, sharedCache }
}
