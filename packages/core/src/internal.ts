// @preencode/core/internal: the public API (index.ts) and what the other packages' internals, the
// tests and the bench use beyond it, listed name by name. No compatibility promise: users import
// '@preencode/core'. Internals below these (temp-file naming, stale-variant removal, window
// fitting...) stay inside their modules.

// Errors
export { isPreencodeError, PreencodeError, userError, type ErrorComponent, type PreencodeErrorCode } from './errors.js'

// The codec table
export {
  ALL_ENCODINGS,
  ALL_FORMATS,
  CODECS,
  DICTIONARY_CODECS,
  FALLBACK_FORMAT,
  PREFERRED_FORMAT,
  codecOf,
  formatOfEncoding,
  formatOfVariantPath,
  isFormat,
  stripVariantExtension,
  type AnyCodec,
  type Encoding,
  type Format,
} from './codecs/table.js'
export type { Codec, CodecFile, EncoderParams } from './codecs/codec.js'
export type { BrotliMode, BrotliParams } from './codecs/brotli.js'
export type { GzipParams } from './codecs/gzip.js'
export type { ZstdParams } from './codecs/zstd.js'
export {
  decodeBuffer,
  encodeBuffer,
  encoderParams,
  encoderSettings,
  encodeWithParams,
  ENGINE_VERSION,
  type EncodeHints,
} from './codecs/encode.js'

// Options
export {
  DEFAULT_COMPRESS_OPTIONS,
  resolveCompressOptions,
  type CompressOptions,
  type FilePattern,
  type ResolvedCompressOptions,
} from './options/compress-options.js'
export { peerFormatName, peerOptionHint } from './options/peer-options.js'
export {
  cacheClassOf,
  DEFAULT_CACHE_CONTROL,
  DELTA_RETENTION_SECONDS,
  dictionaryLifetime,
  resolveCachePolicy,
  type CacheClass,
  type CachePolicyOptions,
  type ResolvedCachePolicy,
} from './http/cache-policy.js'
export {
  resolveBuildOptions,
  type BuildOptions,
  type BuildOptionsContext,
  type ReportMode,
  type ResolvedBuildOptions,
} from './options/build-options.js'

// Running
export {
  compressDirectory,
  type CompressLogger,
  type CompressResult,
  type CompressRun,
} from './run/compress-directory.js'
export { compress } from './run/compress.js'
export {
  buildResultJson,
  renderBuildResult,
  type BuildResult,
  type BuildResultJson,
  type RenderResultOptions,
} from './report/render-result.js'
export {
  createBuildRunner,
  wantsColor,
  type BuildLogger,
  type BuildOutput,
  type BuildRunner,
  type BuildRunnerInit,
  type ColorStream,
} from './build/build-runner.js'
export { detectSidecarIgnoringHost, sidecarsSkippedMessage, type SidecarIgnoringHost } from './build/sidecar-hosts.js'
export { createDebug, type DebugLog } from './debug.js'
export { WorkPool, type PoolOptions, type PoolStats, type SlotTicket } from './pool/pool.js'
export { runPool } from './pool/run-pool.js'
export {
  cacheKey,
  onceCacheWarning,
  openCache,
  type CacheHooks,
  type CacheKeyParts,
  type CompressionCache,
  type VerifyEntry,
} from './cache/cache.js'
export { defaultCacheDir, userCacheDir } from './options/cache-dir.js'
export { scanDirectory, TEMP_FILE_PATTERN, type ScanOptions, type ScanResult } from './run/scan.js'
export { JOURNAL_FILENAME } from './fs/journal.js'
export { globProblem } from './fs/glob-check.js'
export { writeFileAtomically } from './fs/write.js'
export { DEFAULT_MAX_OPEN_FILES, openFileStats, sha256File, withOpenFiles } from './fs/open-files.js'
export { walkDirectory, type SkippedEntry, type WalkResult } from './fs/walk.js'
export { checkSidecarOwnership, type OwnershipResult, type SidecarClash } from './run/ownership.js'

// The manifest
export {
  MANIFEST_FILENAME,
  MANIFEST_VERSION,
  readManifest,
  type Manifest,
  type ManifestDelta,
  type ManifestFile,
  type ManifestVariant,
} from './manifest/manifest.js'
export {
  buildOptionsFromManifest,
  optionsFromManifest,
  recordSettings,
  type ManifestSettings,
  type RecordedPattern,
} from './manifest/settings.js'
export {
  describeDrift,
  manifestDrift,
  reconcileManifest,
  type ManifestDrift,
  type ReconcileResult,
} from './build/reconcile.js'
export { compressibleExtensions, contentTypeOf, isCompressible } from './http/media-types.js'

// Reports and progress
export {
  buildReport,
  formatReport,
  summaryLine,
  type CompressReport,
  type FormatReport,
  type FormatReportOptions,
  type LargestFile,
  type ReportCounters,
  type SkipReason,
} from './report/report.js'
export { formatBytes, formatDuration } from './report/units.js'
export { isSafeRelativePath, printablePath } from './paths.js'

// Size budgets
export {
  parseByteSize,
  resolveBudgets,
  type BudgetCheck,
  type BudgetFormat,
  type BudgetResult,
  type ResolvedBudget,
  type SizeBudget,
} from './options/budgets.js'
export { checkBudgets, sizeIn } from './report/budget-check.js'
export { budgetSummaryLine, formatBudgetMarkdown, formatBudgetTable } from './report/budget-report.js'
export { appendGithubStepSummary, enforceBudgets, type EnforceBudgetsOptions } from './report/enforce-budgets.js'
export { htmlReportData, renderHtmlReport, type HtmlReportData, type HtmlReportOptions } from './report/html-report.js'
export {
  createProgress,
  formatTimeLeft,
  progressStatus,
  type Progress,
  type ProgressBytes,
  type ProgressOptions,
  type ProgressStream,
} from './report/progress.js'

// Compression dictionary transport (RFC 9842)
export {
  AVAILABLE_DICTIONARY_PATTERN,
  availableDictionaryValue,
  dictionaryId,
  parseAvailableDictionary,
  sha256Of,
} from './codecs/dictionary-hash.js'
export {
  acceptsDictionary,
  assertDictionarySupport,
  dczWindowLimit,
  decodeWithDictionary,
  dictionaryCodecOf,
  dictionaryEncoderParams,
  dictionaryHeaderLength,
  dictionaryNodeProblem,
  dictionaryStreamHeader,
  DICTIONARY_ENCODINGS,
  DICTIONARY_MIN_NODE,
  encodeWithDictionary,
  encodeWithDictionaryParams,
  isDictionaryEncoding,
  supportsDictionaryCompression,
  type DictionaryCodec,
  type DictionaryEncodeOptions,
  type DictionaryEncoding,
} from './codecs/dictionary.js'
export {
  useAsDictionaryHeader,
  versionedAsset,
  VERSIONED_ASSET_EXTENSIONS,
  VERSIONED_ASSET_PATTERN,
  type UseAsDictionaryFields,
  type VersionedAsset,
} from './http/use-as-dictionary.js'
export { deltaPath, DELTA_DIRECTORY_SUFFIX, extensionOf, originalOfDeltaPath } from './deltas/delta-paths.js'
export {
  DEFAULT_DELTA_OPTIONS,
  resolveDeltaOptions,
  resolveDeltasSetting,
  type DeltaOptions,
  type DeltasSettingContext,
  type OptionLabel,
  type ResolvedDeltaOptions,
} from './options/delta-options.js'
export { formatDeltaReport, type DeltaFileReport, type DeltaReport } from './report/delta-report.js'
export {
  deployedVersionSource,
  folderVersionSource,
  type DeployedSite,
  type PreviousVersion,
  type PreviousVersionSource,
} from './deltas/previous-versions.js'
export {
  cacheVersionSource,
  MAX_REMEMBERED_BUILDS,
  rememberVersions,
  type RememberedFile,
} from './deltas/version-store.js'
export { writeDeltas, type WriteDeltasContext, type WriteDeltasResult } from './deltas/write-deltas.js'
export { buildDictionary, type DictionaryBuildOptions } from './deltas/dictionary-builder.js'
export {
  isPageDictionary,
  PAGE_DICTIONARY_MATCH,
  PAGE_DICTIONARY_MATCH_DEST,
  PAGE_DICTIONARY_NAME_PATTERN,
  pageDictionaryName,
  preparePageDictionary,
  type PageDictionaryResult,
} from './deltas/page-dictionary.js'

// Shared cache (S3-compatible) and shards
export { parseShard, shardJobs, type Shard } from './options/shard.js'
export { isSharedCacheUrl, parseSharedCacheUrl, type SharedCacheLocation } from './options/shared-cache-location.js'
export {
  withSharedCache,
  type SharedCacheHooks,
  type SharedCacheStats,
  type SharedCompressionCache,
} from './cache/shared-cache.js'
export { openS3Store, type RemoteStore } from './cache/s3-store.js'
