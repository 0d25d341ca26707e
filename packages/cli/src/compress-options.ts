/**
 * `preencode compress` options from two places: the config file's `compress` section (any
 * option of the plugins, budgets included) and the flags, which win. Errors name the flag
 * (`--level-brotli`) or the file and key (`preencode.config.json: compress.levels.brotli`), never
 * the other one's spelling.
 */
import { dirname, resolve } from 'node:path'
import {
  ALL_FORMATS,
  defaultCacheDir,
  CODECS,
  isPreencodeError,
  resolveCompressOptions,
  userError,
  type CompressOptions,
  type Format,
  type LevelOption,
} from '@preencode/core'
import { globProblem, isSharedCacheUrl } from '@preencode/core/internal'
import { parseInteger, parseList } from './cli-utils.js'

/** What the compress command's flags parse to (citty's view of them). */
export type CompressFlags = { [flag in `level-${Format}`]?: string | undefined } & {
  dir: string
  formats?: string | undefined
  threshold?: string | undefined
  concurrency?: string | undefined
  cache?: boolean | undefined
  'cache-dir'?: string | undefined
  endpoint?: string | undefined
}

/** The `compress` section of a loaded config file. */
export interface CompressSection {
  path: string
  options: unknown
}

/**
 * Merges the file's section and the flags; validates both, each with messages in its own
 * terms. `include`/`exclude` come from every `--include`/`--exclude` in `rawArgs`.
 */
export function compressOptionsFrom(
  flags: CompressFlags,
  rawArgs: readonly string[],
  section?: CompressSection,
): CompressOptions {
  const fromFile = section ? checkSection(section) : {}
  const options: CompressOptions = { ...fromFile, ...fromFlags(flags, rawArgs) }
  const include = collectGlobs(rawArgs, 'include')
  const exclude = collectGlobs(rawArgs, 'exclude')
  if (include.length > 0) options.include = include
  if (exclude.length > 0) options.exclude = exclude
  if (flags.cache === false) options.cache = false
  else if (flags['cache-dir'] !== undefined) options.cache = flags['cache-dir']
  // Found from the site, not the working directory: run from anywhere, same cache.
  else if (options.cache === undefined || options.cache === true) options.cache = defaultCacheDir(flags.dir)
  if (flags.endpoint !== undefined) {
    if (!isSharedCacheUrl(options.cache))
      throw userError('cli', '--endpoint is the endpoint of a shared cache: it needs --cache-dir s3://bucket/prefix.')
    options.cacheEndpoint = String(flags.endpoint)
  }
  return options
}

function fromFlags(flags: CompressFlags, rawArgs: readonly string[]): CompressOptions {
  const options: CompressOptions = {}
  const formats = parseList(flags.formats, 'formats')
  // Core validates the names, so the message lists the accepted formats in one place.
  if (formats) options.formats = formats as Format[]
  const levels: Partial<Record<Format, LevelOption>> = {}
  for (const format of ALL_FORMATS) {
    const flag = `level-${format}` as const
    if (String(flags[flag] ?? '').trim() === 'max') {
      levels[format] = 'max'
      continue
    }
    const [min, max] = CODECS[format].levels
    const level = parseLevel(flags[flag], flag, `${min}-${max}`)
    if (level === undefined) continue
    if (level < min || level > max)
      throw userError('cli', `--${flag} is ${level}; ${format} accepts a whole number from ${min} to ${max}, or max.`)
    levels[format] = level
  }
  if (Object.keys(levels).length > 0) options.levels = levels
  const threshold = parseInteger(flags.threshold, 'threshold')
  if (threshold !== undefined) {
    if (threshold < 0) throw userError('cli', `--threshold is ${threshold}; it must be a whole number of bytes >= 0.`)
    options.threshold = threshold
  }
  const concurrency = parseInteger(flags.concurrency, 'concurrency')
  if (concurrency !== undefined) {
    if (concurrency < 1) throw userError('cli', `--concurrency is ${concurrency}; it must be at least 1.`)
    options.concurrency = concurrency
  }
  // citty fills in the flag's default; only a flag actually given overrides the file.
  if (rawArgs.includes('--no-keep-originals')) options.keepOriginals = false
  else if (rawArgs.includes('--keep-originals')) options.keepOriginals = true
  return options
}

/** Validates the file's section on its own, so its mistakes are reported against the file. */
function checkSection(section: CompressSection): CompressOptions {
  const where = section.path
  const value = section.options
  if (value === undefined) return {}
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw userError(
      'cli',
      `${where}: "compress" must be an object of compress options, e.g. { "formats": ["gzip", "brotli"] }.`,
    )
  const options = { ...(value as CompressOptions) }
  // Paths in the file are relative to the file, not to wherever the command runs.
  if (typeof options.cache === 'string' && !isSharedCacheUrl(options.cache))
    options.cache = resolve(dirname(section.path), options.cache)
  try {
    resolveCompressOptions(options, dirname(section.path))
  } catch (error) {
    if (!isPreencodeError(error) || !error.isUserError) throw error
    // `levels.brotli` is 12 -> `compress.levels.brotli` is 12: option paths as written in the file.
    const keys = new Set(Object.keys(options))
    const message = error.message
      .replace(/^\[preencode\] \[[a-z-]+\] /, '')
      .replace(/`([a-zA-Z]\w*)([\w.[\]]*)`/g, (token, root: string, rest: string) =>
        keys.has(root) ? `\`compress.${root}${rest}\`` : token,
      )
    throw userError('cli', `${where}: ${message}`, { cause: error })
  }
  return options
}

/**
 * Every value of a repeatable glob flag (`--include a --include=b`), each split at commas
 * outside braces so `--include '**\/*.{js,css},*.html'` is two globs.
 */
function collectGlobs(rawArgs: readonly string[], flag: string): string[] {
  const values: string[] = []
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!
    if (arg === '--') break
    if (arg === `--${flag}`) {
      const next = rawArgs[i + 1]
      if (next === undefined || next.startsWith('--'))
        throw userError('cli', `--${flag} needs a glob, e.g. --${flag} 'assets/**/*.js'.`)
      values.push(next)
      i++
    } else if (arg.startsWith(`--${flag}=`)) values.push(arg.slice(flag.length + 3))
  }
  const globs = values
    .flatMap(splitOutsideBraces)
    .map((g) => g.trim())
    .filter(Boolean)
  for (const glob of globs) {
    const problem = globProblem(glob)
    if (problem)
      throw userError(
        'cli',
        `--${flag} '${glob}' is not a valid glob: it has ${problem}, so it would match no file. Close it, or escape the character with \\.`,
      )
  }
  return globs
}

function splitOutsideBraces(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '{') depth++
    else if (text[i] === '}') depth = Math.max(0, depth - 1)
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i))
      start = i + 1
    }
  }
  parts.push(text.slice(start))
  return parts
}

/** A `--level-<format>` value other than `max`: a whole number. */
function parseLevel(value: string | undefined, flag: string, range: string): number | undefined {
  if (value === undefined) return undefined
  if (!/^-?\d+$/.test(String(value).trim()))
    throw userError('cli', `--${flag} must be a whole number (${range}) or max; got \`${String(value)}\`.`)
  return parseInteger(value, flag)
}
