/**
 * `preencode compress` options from two places: the config file's `compress` section (any
 * option of the plugins, budgets included) and the flags, which win. Both are resolved once, by
 * core's resolvers (`resolveBuildOptions`), with a label naming each option where the user wrote
 * it: the flag (`--level-brotli`) or the file and key (`preencode.config.json: compress.levels.brotli`).
 */
import { dirname, resolve } from 'node:path'
import {
  ALL_FORMATS,
  type CompressOptions,
  defaultCacheDir,
  type Format,
  type LevelOption,
  type OptionLabel,
  userError,
} from '@preencode/core'
import { globProblem, isSharedCacheUrl } from '@preencode/core/internal'
import { fileLabel, settingLabel } from './config-file.js'
import { deltaFlagLabel } from './deltas.js'
import { numberFlag, parseList } from './flags.js'

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

/** The flag that sets each option; `levels.<format>` is `--level-<format>`. */
const FLAGS: Readonly<Record<string, string>> = {
  formats: '--formats',
  threshold: '--threshold',
  concurrency: '--concurrency',
  keepOriginals: '--keep-originals',
  include: '--include',
  exclude: '--exclude',
  cache: '--cache-dir',
  cacheEndpoint: '--endpoint',
}

/** Plugin options the command sets from its flags only. */
const FLAG_ONLY: Readonly<Record<string, string>> = {
  report: '--json or --quiet',
  deltas: '--no-deltas or the delta flags',
  force: '--force',
  shard: '--shard',
}

/**
 * Merges the file's section and the flags (checked by the resolver, with `label`).
 * `include`/`exclude` come from every `--include`/`--exclude` in `rawArgs`.
 */
export function compressOptionsFrom(
  flags: CompressFlags,
  rawArgs: readonly string[],
  section?: CompressSection,
): { options: CompressOptions; label: OptionLabel } {
  const fromFile = section ? sectionOptions(section) : {}
  const given = fromFlags(flags, rawArgs)
  const options: CompressOptions = { ...fromFile, ...given }
  if (flags.cache === false) given.cache = options.cache = false
  else if (flags['cache-dir'] !== undefined) given.cache = options.cache = flags['cache-dir']
  // Found from the site, not the working directory: run from anywhere, same cache.
  else if (options.cache === undefined || options.cache === true) options.cache = defaultCacheDir(flags.dir)
  if (flags.endpoint !== undefined) {
    if (!isSharedCacheUrl(options.cache))
      throw userError('cli', '--endpoint is the endpoint of a shared cache: it needs --cache-dir s3://bucket/prefix.')
    given.cacheEndpoint = options.cacheEndpoint = String(flags.endpoint)
  }
  return { options, label: compressLabel(given, section?.path) }
}

/** `--threshold` for an option a flag set, `` `compress.threshold` in <file> `` for one from the file. */
function compressLabel(given: CompressOptions, path: string | undefined): OptionLabel {
  return settingLabel('compress', path, (key) => {
    if (key === 'deltas' || key.startsWith('deltas.')) return deltaFlagLabel(key.slice('deltas.'.length))
    const [root = ''] = key.split('.')
    // A flag-only option (`force`) is named by its flag, set or not.
    if (FLAG_ONLY[root]) return FLAG_ONLY[root]
    // `--no-cache` turned it off, `--cache-dir` chose it.
    if (root === 'cache' && given.cache === false) return '--no-cache'
    const level = /^levels\.(\w+)$/.exec(key)?.[1]
    const byFlag = level ? given.levels?.[level as Format] !== undefined : root in given
    // Without a config file every option came from a flag (or the command itself).
    if (!byFlag && path) return undefined
    return level ? `--level-${level}` : (FLAGS[root] ?? `--${root}`)
  })
}

/** The options the flags set, as typed: core's resolver checks them, naming the flag. */
function fromFlags(flags: CompressFlags, rawArgs: readonly string[]): CompressOptions {
  const options: Record<string, unknown> = {}
  const formats = parseList(flags.formats, 'formats')
  if (formats) options.formats = formats
  const levels: Partial<Record<Format, LevelOption>> = {}
  for (const format of ALL_FORMATS) {
    const value = flags[`level-${format}`]
    if (value === undefined) continue
    levels[format] = String(value).trim() === 'max' ? 'max' : (numberFlag(value) as number)
  }
  if (Object.keys(levels).length > 0) options.levels = levels
  if (flags.threshold !== undefined) options.threshold = numberFlag(flags.threshold)
  if (flags.concurrency !== undefined) options.concurrency = numberFlag(flags.concurrency)
  // citty fills in the flag's default; only a flag actually given overrides the file.
  if (rawArgs.includes('--no-keep-originals')) options.keepOriginals = false
  else if (rawArgs.includes('--keep-originals')) options.keepOriginals = true
  const include = collectGlobs(rawArgs, 'include')
  const exclude = collectGlobs(rawArgs, 'exclude')
  if (include.length > 0) options.include = include
  if (exclude.length > 0) options.exclude = exclude
  return options as CompressOptions
}

/** The file's section as written: an object of compress options, its relative `cache` found from the file. */
function sectionOptions(section: CompressSection): CompressOptions {
  const label = fileLabel(section.path, 'compress')
  const value = section.options
  if (value === undefined) return {}
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw userError(
      'cli',
      `${label('')} must be an object of compress options, e.g. { "formats": ["gzip", "brotli"] }.`,
    )
  const options = { ...(value as CompressOptions) }
  // The plugins' build options that the command takes from its flags only.
  for (const [key, flag] of Object.entries(FLAG_ONLY)) {
    if (key in options) throw userError('cli', `${label(key)} is not read from the file; pass ${flag} instead.`)
  }
  // Paths in the file are relative to the file, not to wherever the command runs.
  if (typeof options.cache === 'string' && !isSharedCacheUrl(options.cache))
    options.cache = resolve(dirname(section.path), options.cache)
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
