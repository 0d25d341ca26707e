// @preencode/core/internal: what the other packages' sources (server-config, deploy, the CLI,
// the Vite and Rollup plugins) and the bench use beyond the public API, name by name. No compatibility
// promise: users import '@preencode/core', and the other packages import the public names from
// there too. Tests import core's sources by path, never through this file, so a name is here only
// while a sibling package needs it (`test-utils/test/core-internal.test.ts` checks it).

// Messages

export { preencodeMessage } from './errors.js'

// Codings

export { DICTIONARY_ENCODINGS, dictionaryStreamHeader } from './codecs/dictionary.js'
export {
  AVAILABLE_DICTIONARY_PATTERN,
  availableDictionaryValue,
  parseAvailableDictionary,
} from './codecs/dictionary-hash.js'
export { isFormat } from './codecs/table.js'
export { ZSTD_MAX_WINDOW_LOG } from './codecs/zstd.js'

// What HTTP says about a file: cache policy, compressible types, content-hashed names

export { cacheClassOf, DEFAULT_CACHE_CONTROL, resolveCachePolicy } from './http/cache-policy.js'
export { HASHED_NAME_RULE } from './http/hashed-name.js'
export { compressibleExtensions } from './http/media-types.js'

// The disk and the pool

export { s3ClientConfig } from './cache/s3-client.js'
export { acquireFolderLock, type FolderLock } from './fs/folder-lock.js'
export { globProblem } from './fs/glob-check.js'
export { sha256File, withOpenFiles } from './fs/open-files.js'
export { writeFileAtomically } from './fs/write.js'
export { isSharedCacheUrl } from './options/shared-cache-location.js'
export { extensionOf, isSafeRelativePath } from './paths.js'
export { runPool } from './pool/run-pool.js'

// A site on disk against its manifest; which files get compressed

export { pathsOutsideSite, refuseManifestOutsideSite } from './manifest/manifest-paths.js'
export { buildOptionsFromManifest } from './manifest/settings.js'
export { guardFolder } from './pipeline/exit-guard.js'
export { manifestDrift } from './pipeline/reconcile.js'
export { fileRuleOf, skipReason } from './run/eligibility.js'

// Delta updates and dictionaries

export { ASSET_DICTIONARY_MATCH } from './deltas/asset-dictionary.js'
export { deltaPath, originalOfDeltaPath } from './deltas/delta-paths.js'
export { buildDictionary } from './deltas/dictionary-builder.js'
export {
  isPageDictionary,
  PAGE_DICTIONARY_MATCH,
  PAGE_DICTIONARY_MATCH_DEST,
  PAGE_DICTIONARY_NAME_PATTERN,
} from './deltas/page-dictionary.js'
export {
  deployedVersionSource,
  folderVersionSource,
  type PreviousVersionSource,
} from './deltas/previous-versions.js'
export { ASSET_DICTIONARY_NAME_PATTERN, isAssetDictionary } from './http/page-dictionary-name.js'
