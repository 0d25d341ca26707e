/**
 * @preencode/core, the public API: build-time precompression (gzip, brotli, zstd) of a site
 * folder, its manifest, its report, and delta updates (RFC 9842). The integrations, the CLI and
 * scripts use these names; each is documented where it is declared. What the other packages'
 * sources and the bench need beyond them comes from `@preencode/core/internal`, which makes no
 * compatibility promise; tests import core's sources.
 */

// Compress a folder. Scripts: `compress(dir, options)`. Integrations resolve once
// (`resolveBuildOptions`) and run the one pipeline (`createBuildRunner`).
export { compress } from './run/compress.js'
export {
  compressDirectory,
  type CompressLogger,
  type CompressResult,
  type CompressHooks,
} from './run/compress-directory.js'
export {
  createBuildRunner,
  wantsColor,
  type BuildLogger,
  type BuildOutput,
  type BuildRunner,
  type BuildRunnerInit,
} from './pipeline/build-runner.js'
export {
  detectSidecarIgnoringHost,
  sidecarsSkippedMessage,
  type SidecarIgnoringHost,
} from './pipeline/sidecar-hosts.js'
export { reconcileManifest, type ManifestDrift, type ReconcileResult } from './pipeline/reconcile.js'

// Options: what users write, validated with messages naming the option.
export {
  DEFAULT_COMPRESS_OPTIONS,
  resolveCompressOptions,
  type CompressOptions,
  type FilePattern,
  type ResolvedCompressOptions,
} from './options/compress-options.js'
export {
  resolveBuildOptions,
  type BuildOptions,
  type BuildOptionsContext,
  type ReportMode,
  type ResolvedBuildOptions,
} from './options/build-options.js'
export {
  DEFAULT_DELTA_OPTIONS,
  resolveDeltaOptions,
  resolveDeltasSetting,
  type DeltaOptions,
  type ResolvedDeltaOptions,
} from './options/delta-options.js'
export type { OptionLabel } from './options/option-label.js'
export type { CacheClass, CachePolicyOptions } from './http/cache-policy.js'
export type { SizeBudget } from './options/budgets.js'
export { parseShard, type Shard } from './options/shard.js'
export { defaultCacheDir } from './options/cache-dir.js'

// The result: one renderer for every entry point (text, or one JSON object).
export {
  buildResultJson,
  renderBuildResult,
  type BuildResult,
  type BuildResultJson,
} from './report/render-result.js'
export { formatReport, type CompressReport } from './report/report.js'
export { formatDeltaReport, type DeltaReport } from './report/delta-report.js'
export { renderHtmlReport } from './report/html-report.js'
export { appendGithubStepSummary, enforceBudgets } from './report/enforce-budgets.js'
export { formatBudgetMarkdown, formatBudgetTable } from './report/budget-report.js'
export type { BudgetResult } from './options/budgets.js'
export { createProgress } from './report/progress.js'
export { formatBytes } from './report/units.js'

// The manifest: what deploy and the server configs read.
export {
  MANIFEST_FILENAME,
  readManifest,
  type Manifest,
  type ManifestDelta,
  type ManifestFile,
  type ManifestSettings,
  type ManifestVariant,
} from './manifest/manifest.js'

// Delta updates (RFC 9842).
export { writeDeltas, type WriteDeltasContext, type WriteDeltasResult } from './deltas/write-deltas.js'
export {
  decodeWithDictionary,
  encodeWithDictionary,
  supportsDictionaryCompression,
  type DictionaryEncoding,
} from './codecs/dictionary.js'
export { useAsDictionaryHeader, versionedAsset } from './http/use-as-dictionary.js'

// The codec table: the codings, their tokens and suffixes.
export {
  ALL_ENCODINGS,
  ALL_FORMATS,
  CODECS,
  DICTIONARY_CODECS,
  formatOfEncoding,
  formatOfVariantPath,
  type Encoding,
  type Format,
} from './codecs/table.js'
export type { Codec } from './codecs/codec.js'
export { decodeBuffer, encodeBuffer, type LevelOption } from './codecs/encode.js'
export { contentTypeOf, isCompressible } from './http/media-types.js'

// Errors: every user error names the option, file or server and says what to do.
export { isPreencodeError, PreencodeError, userError, type ErrorComponent, type PreencodeErrorCode } from './errors.js'
