/**
 * Which files get compressed: ONE rule, read by everything that decides it — the compress run
 * (`file-job.ts`, and the shard's split), the scan's `include`/`exclude` sets, and every look at
 * a folder after a run (the Vite plugin's final look, the check a build process makes as it
 * exits). A file is compressed when `exclude` does not match it (nor, when `include` is given,
 * does `include` fail to), its type is compressible or `include` matches it, and it holds at
 * least `threshold` bytes (and at least one). Whether its variants are then worth writing
 * (`minSaving`) is decided after encoding, by `isWorthWriting`.
 */
import { createFilter } from '@rollup/pluginutils'
import { isCompressible } from '../http/media-types.js'
import type { FilePattern } from '../options/compress-options.js'
import type { SkipReason } from '../report/report.js'

/** The rule for one run's options: which paths `include` and `exclude` pick, and the size threshold. */
export interface FileRule {
  /** `include` matches the path: compressed whatever its type. */
  included(path: string): boolean
  /** `exclude` matches the path, or a non-empty `include` does not: never compressed. */
  excluded(path: string): boolean
  /** Files smaller than this many bytes are not compressed. */
  threshold: number
}

/** The options the rule reads (resolved compress options fit). */
export interface FileRuleOptions {
  include: readonly FilePattern[]
  exclude: readonly FilePattern[]
  threshold: number
}

/**
 * The rule of `options`. `include`/`exclude` are Rollup's `createFilter` (globs and RegExps
 * against the POSIX path relative to the folder), so they mean what they mean in every Rollup
 * and Vite plugin; `include`, when given, is the whole set.
 */
export function fileRuleOf(options: FileRuleOptions): FileRule {
  const { include, exclude, threshold } = options
  const matchesInclude = include.length > 0 ? createFilter(include, null, { resolve: false }) : () => false
  const matchesExclude = exclude.length > 0 ? createFilter(exclude, null, { resolve: false }) : () => false
  return {
    threshold,
    included: (path) => matchesInclude(path),
    excluded: (path) => matchesExclude(path) || (include.length > 0 && !matchesInclude(path)),
  }
}

/** Why the file at `path` (of `size` bytes) gets no variant under `rule`; undefined when it is compressed. */
export function skipReason(rule: FileRule, path: string, size: number): Exclude<SkipReason, 'no-saving'> | undefined {
  if (rule.excluded(path)) return 'excluded'
  if (!rule.included(path) && !isCompressible(path)) return 'incompressible'
  if (size < rule.threshold || size === 0) return 'below-threshold'
  return undefined
}
