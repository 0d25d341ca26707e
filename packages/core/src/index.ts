// The public API of @preencode/core, listed name by name: what other packages, integrations and
// scripts may rely on. Internals (temp-file naming, stale-variant removal, window fitting...)
// stay inside their modules.

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
} from './formats.js'
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
} from './encoders.js'

// Options
export {
  DEFAULT_COMPRESS_OPTIONS,
  resolveCompressOptions,
  type CompressOptions,
  type FilePattern,
  type ResolvedCompressOptions,
} from './options.js'
export { peerFormatName, peerOptionHint } from './peer-options.js'
export {
  cacheClassOf,
  DEFAULT_CACHE_CONTROL,
  DELTA_RETENTION_SECONDS,
  dictionaryLifetime,
  resolveCachePolicy,
  type CacheClass,
  type CachePolicyOptions,
  type ResolvedCachePolicy,
} from './cache-policy.js'
export {
  resolveBuildOptions,
  type BuildOptions,
  type BuildOptionsContext,
  type ReportMode,
  type ResolvedBuildOptions,
} from './build-options.js'

// Running
export { compressDirectory, type CompressLogger, type CompressResult, type CompressRun } from './compress-directory.js'
export { compress } from './compress.js'
export {
  buildResultJson,
  renderBuildResult,
  type BuildResult,
  type BuildResultJson,
  type RenderResultOptions,
} from './render-result.js'
export {
  createBuildRunner,
  wantsColor,
  type BuildLogger,
  type BuildOutput,
  type BuildRunner,
  type BuildRunnerInit,
  type ColorStream,
} from './build-runner.js'
export { detectSidecarIgnoringHost, sidecarsSkippedMessage, type SidecarIgnoringHost } from './sidecar-hosts.js'
export { createDebug, type DebugLog } from './debug.js'
export { WorkPool, type PoolOptions, type PoolStats, type SlotTicket } from './pool.js'
export { runPool } from './run-pool.js'
export {
  cacheKey,
  onceCacheWarning,
  openCache,
  type CacheHooks,
  type CacheKeyParts,
  type CompressionCache,
  type VerifyEntry,
} from './cache.js'
export { defaultCacheDir, userCacheDir } from './cache-dir.js'
export { scanDirectory, TEMP_FILE_PATTERN, type ScanOptions, type ScanResult } from './scan.js'
export { JOURNAL_FILENAME } from './journal.js'
export { globProblem } from './glob-check.js'
export { writeFileAtomically } from './write.js'
export { DEFAULT_MAX_OPEN_FILES, openFileStats, sha256File, withOpenFiles } from './open-files.js'
export { walkDirectory, type SkippedEntry, type WalkResult } from './walk.js'
export { checkSidecarOwnership, type OwnershipResult, type SidecarClash } from './ownership.js'

// The manifest
export {
  MANIFEST_FILENAME,
  MANIFEST_VERSION,
  readManifest,
  type Manifest,
  type ManifestDelta,
  type ManifestFile,
  type ManifestVariant,
} from './manifest.js'
export {
  buildOptionsFromManifest,
  optionsFromManifest,
  recordSettings,
  type ManifestSettings,
  type RecordedPattern,
} from './manifest-settings.js'
export {
  describeDrift,
  manifestDrift,
  reconcileManifest,
  type ManifestDrift,
  type ReconcileResult,
} from './reconcile.js'
export { compressibleExtensions, contentTypeOf, isCompressible } from './media-types.js'

// Reports and progress
export {
  buildReport,
  formatBytes,
  formatReport,
  summaryLine,
  type CompressReport,
  type FormatReport,
  type FormatReportOptions,
  type LargestFile,
  type ReportCounters,
  type SkipReason,
} from './report.js'
export { printablePath } from './paths.js'

// Size budgets
export {
  checkBudgets,
  parseByteSize,
  resolveBudgets,
  sizeIn,
  type BudgetCheck,
  type BudgetFormat,
  type BudgetResult,
  type ResolvedBudget,
  type SizeBudget,
} from './budgets.js'
export { budgetSummaryLine, formatBudgetMarkdown, formatBudgetTable } from './budget-report.js'
export { appendGithubStepSummary, enforceBudgets, type EnforceBudgetsOptions } from './enforce-budgets.js'
export { htmlReportData, renderHtmlReport, type HtmlReportData, type HtmlReportOptions } from './html-report.js'
export {
  createProgress,
  formatTimeLeft,
  progressStatus,
  type Progress,
  type ProgressBytes,
  type ProgressOptions,
  type ProgressStream,
} from './progress.js'

// Compression dictionary transport (RFC 9842)
export {
  AVAILABLE_DICTIONARY_PATTERN,
  availableDictionaryValue,
  dictionaryId,
  parseAvailableDictionary,
  sha256Of,
} from './available-dictionary.js'
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
} from './dictionary-codecs.js'
export {
  useAsDictionaryHeader,
  versionedAsset,
  VERSIONED_ASSET_EXTENSIONS,
  VERSIONED_ASSET_PATTERN,
  type UseAsDictionaryFields,
  type VersionedAsset,
} from './use-as-dictionary.js'
export { deltaPath, DELTA_DIRECTORY_SUFFIX, extensionOf, originalOfDeltaPath } from './delta-paths.js'
export {
  DEFAULT_DELTA_OPTIONS,
  resolveDeltaOptions,
  resolveDeltasSetting,
  type DeltaOptions,
  type DeltasSettingContext,
  type OptionLabel,
  type ResolvedDeltaOptions,
} from './delta-options.js'
export { formatDeltaReport, type DeltaFileReport, type DeltaReport } from './delta-report.js'
export {
  deployedVersionSource,
  folderVersionSource,
  isSafeRelativePath,
  type DeployedSite,
  type PreviousVersion,
  type PreviousVersionSource,
} from './previous-versions.js'
export { cacheVersionSource, MAX_REMEMBERED_BUILDS, rememberVersions, type RememberedFile } from './version-store.js'
export { writeDeltas, type WriteDeltasContext, type WriteDeltasResult } from './write-deltas.js'
export { buildDictionary, type DictionaryBuildOptions } from './dictionary-builder.js'
export {
  isPageDictionary,
  PAGE_DICTIONARY_MATCH,
  PAGE_DICTIONARY_MATCH_DEST,
  PAGE_DICTIONARY_NAME_PATTERN,
  pageDictionaryName,
  preparePageDictionary,
  type PageDictionaryResult,
} from './page-dictionary.js'

// Shared cache (S3-compatible) and shards
export { parseShard, shardJobs, type Shard } from './shard.js'
export { isSharedCacheUrl, parseSharedCacheUrl, type SharedCacheLocation } from './shared-cache-location.js'
export {
  withSharedCache,
  type SharedCacheHooks,
  type SharedCacheStats,
  type SharedCompressionCache,
} from './shared-cache.js'
export { openS3Store, type RemoteStore } from './s3-cache-store.js'
