// @preencode/core/internal: the public API (index.ts, re-exported whole) and, name by name, what
// the other packages' internals, the tests and the bench use beyond it. No compatibility promise:
// users import '@preencode/core'. Internals below these (temp-file naming, stale-variant removal, window
// fitting...) stay inside their modules.

export * from './index.js'

// The codec table
export {
  FALLBACK_FORMAT,
  PREFERRED_FORMAT,
  codecOf,
  isFormat,
  stripVariantExtension,
  type AnyCodec,
} from './codecs/table.js'
export type { Codec, CodecFile, EncoderParams } from './codecs/codec.js'
export type { BrotliMode, BrotliParams } from './codecs/brotli.js'
export type { GzipParams } from './codecs/gzip.js'
export { ZSTD_MAX_WINDOW_LOG, type ZstdParams } from './codecs/zstd.js'
export {
  encoderParams,
  encoderSettings,
  encodeWithParams,
  ENGINE_VERSION,
  isLevel,
  levelNumber,
  type EncodeHints,
} from './codecs/encode.js'
export { GZIP_MAX_LEVEL, LIBDEFLATE_ENGINE } from './codecs/gzip.js'

// Options
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

// Running
export type { RenderResultOptions } from './report/render-result.js'
export type { ColorStream } from './build/build-runner.js'
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
export { userCacheDir } from './options/cache-dir.js'
export { scanDirectory, TEMP_FILE_PATTERN, type ScanOptions, type ScanResult } from './run/scan.js'
export { JOURNAL_FILENAME } from './fs/journal.js'
export { globProblem } from './fs/glob-check.js'
export { writeFileAtomically } from './fs/write.js'
export { DEFAULT_MAX_OPEN_FILES, openFileStats, sha256File, withOpenFiles } from './fs/open-files.js'
export { walkDirectory, type SkippedEntry, type WalkResult } from './fs/walk.js'
export { checkSidecarOwnership, type OwnershipResult, type SidecarClash } from './run/ownership.js'

// The manifest
export { MANIFEST_VERSION } from './manifest/manifest.js'
export {
  buildOptionsFromManifest,
  optionsFromManifest,
  recordSettings,
  type RecordedPattern,
} from './manifest/settings.js'
export { describeDrift, manifestDrift } from './build/reconcile.js'
export { compressibleExtensions } from './http/media-types.js'

// Reports and progress
export {
  buildReport,
  summaryLine,
  type FormatReport,
  type FormatReportOptions,
  type LargestFile,
  type ReportCounters,
  type SkipReason,
} from './report/report.js'
export { formatDuration } from './report/units.js'
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
export { budgetSummaryLine } from './report/budget-report.js'
export type { EnforceBudgetsOptions } from './report/enforce-budgets.js'
export { htmlReportData, type HtmlReportData, type HtmlReportOptions } from './report/html-report.js'
export {
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
  dictionaryCodecOf,
  dictionaryEncoderParams,
  dictionaryHeaderLength,
  dictionaryNodeProblem,
  dictionaryStreamHeader,
  DICTIONARY_ENCODINGS,
  DICTIONARY_MIN_NODE,
  encodeWithDictionaryParams,
  isDictionaryEncoding,
  type DictionaryCodec,
  type DictionaryEncodeOptions,
} from './codecs/dictionary.js'
export {
  VERSIONED_ASSET_EXTENSIONS,
  VERSIONED_ASSET_PATTERN,
  type UseAsDictionaryFields,
  type VersionedAsset,
} from './http/use-as-dictionary.js'
export { deltaPath, DELTA_DIRECTORY_SUFFIX, originalOfDeltaPath } from './deltas/delta-paths.js'
export type { DeltasSettingContext, OptionLabel } from './options/delta-options.js'
export type { DeltaFileReport } from './report/delta-report.js'
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
export { shardJobs } from './options/shard.js'
export { isSharedCacheUrl, parseSharedCacheUrl, type SharedCacheLocation } from './options/shared-cache-location.js'
export {
  withSharedCache,
  type SharedCacheHooks,
  type SharedCacheStats,
  type SharedCompressionCache,
} from './cache/shared-cache.js'
export { openS3Store, type RemoteStore } from './cache/s3-store.js'
export {
  acquireFolderLock,
  withFolderLock,
  type FolderLock,
  type FolderLockOptions,
  type LockHolder,
} from './fs/folder-lock.js'
export {
  HASH_SEPARATOR,
  HASH_TOKEN,
  HASH_TOKEN_RE2,
  HASHED_NAME,
  HASHED_NAME_RE2,
  looksContentHashed,
  VERSIONED_STEM,
  versionedAssetPattern,
} from './http/hashed-name.js'

// Added by issue 27's "one rule in one place" (server-config's policy check types files by it)
export { extensionOf } from './paths.js'
