/**
 * @preencode/core, the public API: build-time precompression (gzip, brotli, zstd) of a site
 * folder, its manifest, its report, and delta updates (RFC 9842). The integrations, the CLI and
 * scripts use these names; each is documented where it is declared. What the other packages'
 * sources and the bench need beyond them comes from `@preencode/core/internal`, which makes no
 * compatibility promise; tests import core's sources.
 */

// Compress a folder. Scripts: `compress(dir, options)`. Integrations resolve once
// (`resolveBuildOptions`) and run the one pipeline (`createBuildRunner`).

export {
  type BuildLogger,
  type BuildOutput,
  type BuildRunner,
  type BuildRunnerInit,
  createBuildRunner,
  wantsColor,
} from './pipeline/build-runner.js'
export { type ManifestDrift, type ReconcileResult, reconcileManifest } from './pipeline/reconcile.js'
export {
  detectSidecarIgnoringHost,
  type SidecarIgnoringHost,
  sidecarsSkippedMessage,
} from './pipeline/sidecar-hosts.js'
export { compress } from './run/compress.js'
export {
  type CompressHooks,
  type CompressLogger,
  type CompressResult,
  compressDirectory,
} from './run/compress-directory.js'

// Options: what users write, validated with messages naming the option.

export type { CacheClass, CachePolicyOptions } from './http/cache-policy.js'
export type { SizeBudget } from './options/budgets.js'
export {
  type BuildOptions,
  type BuildOptionsContext,
  type ReportMode,
  type ResolvedBuildOptions,
  resolveBuildOptions,
} from './options/build-options.js'
export { defaultCacheDir } from './options/cache-dir.js'
export {
  type CompressOptions,
  DEFAULT_COMPRESS_OPTIONS,
  type FilePattern,
  type ResolvedCompressOptions,
  resolveCompressOptions,
} from './options/compress-options.js'
export {
  DEFAULT_DELTA_OPTIONS,
  type DeltaOptions,
  type ResolvedDeltaOptions,
  resolveDeltaOptions,
  resolveDeltasSetting,
} from './options/delta-options.js'
export type { OptionLabel } from './options/option-label.js'
export { parseShard, type Shard } from './options/shard.js'

// The result: one renderer for every entry point (text, or one JSON object).

export type { BudgetResult } from './options/budgets.js'
export { formatBudgetMarkdown, formatBudgetTable } from './report/budget-report.js'
export { type DeltaReport, formatDeltaReport } from './report/delta-report.js'
export { appendGithubStepSummary, enforceBudgets } from './report/enforce-budgets.js'
export { renderHtmlReport } from './report/html-report.js'
export { createProgress } from './report/progress.js'
export {
  type BuildResult,
  type BuildResultJson,
  buildResultJson,
  renderBuildResult,
} from './report/render-result.js'
export { type CompressReport, formatReport } from './report/report.js'
export { formatBytes } from './report/units.js'

// The manifest: what deploy and the server configs read.

export {
  MANIFEST_FILENAME,
  type Manifest,
  type ManifestDelta,
  type ManifestFile,
  type ManifestSettings,
  type ManifestVariant,
  readManifest,
} from './manifest/manifest.js'

// Delta updates (RFC 9842).

export {
  type DictionaryEncoding,
  decodeWithDictionary,
  encodeWithDictionary,
  supportsDictionaryCompression,
} from './codecs/dictionary.js'
export { type WriteDeltasContext, type WriteDeltasResult, writeDeltas } from './deltas/write-deltas.js'
export { useAsDictionaryHeader, versionedAsset } from './http/use-as-dictionary.js'

// The codec table: the codings, their tokens and suffixes.

export type { Codec } from './codecs/codec.js'
export { decodeBuffer, encodeBuffer, type LevelOption } from './codecs/encode.js'
export {
  ALL_ENCODINGS,
  ALL_FORMATS,
  CODECS,
  DICTIONARY_CODECS,
  type Encoding,
  type Format,
  formatOfEncoding,
  formatOfVariantPath,
} from './codecs/table.js'
export { contentTypeOf, isCompressible } from './http/media-types.js'

// Errors: every user error names the option, file or server and says what to do.

export { type ErrorComponent, isPreencodeError, PreencodeError, type PreencodeErrorCode, userError } from './errors.js'
