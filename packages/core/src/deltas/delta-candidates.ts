// Which previous versions a file's deltas are made against, and one delta body (cached).
import { type CompressionCache, cacheKey } from '../cache/cache.js'
import {
  type DictionaryEncoding,
  decodeWithDictionary,
  dictionaryCodecOf,
  dictionaryEncoderParams,
  encodeWithDictionaryParams,
} from '../codecs/dictionary.js'
import { CODECS, type Format, PREFERRED_FORMAT } from '../codecs/table.js'
import { isAssetDictionary, isPageDictionary, isSiteDictionary } from '../http/page-dictionary-name.js'
import { versionedAsset } from '../http/use-as-dictionary.js'
import type { Manifest, ManifestDelta, ManifestFile } from '../manifest/manifest.js'
import type { ResolvedDeltaOptions } from '../options/delta-options.js'
import type { WorkPool } from '../pool/pool.js'
import type { DeltaFileReport } from '../report/delta-report.js'
import type { WriteDeltasContext } from './delta-context.js'
import { folderVersionSource, type PreviousVersion, type PreviousVersionSource } from './previous-versions.js'
import { cacheVersionSource } from './version-store.js'

/**
 * Dictionaries per file at most, when `versions` is smaller: several chunks can share one logical
 * name (`index-*.js`), so one deploy can bring several. A larger `versions` is honoured (at most
 * 20, `resolveDeltaOptions`): one dictionary per deploy in the window.
 */
const MIN_DICTIONARIES_PER_FILE = 8

/**
 * A rebuild of unchanged sources finds itself as the newest remembered build (or the live
 * deploy): that generation is this build, so the versions visitors may hold start one further back.
 */
export function withoutThisBuild(versions: PreviousVersion[], manifest: Manifest): PreviousVersion[] {
  const newest = new Map(versions.filter((v) => v.generation === 0).map((v) => [v.path, v.sha256]))
  const current = manifest.files.filter((f) => versionedAsset(f.path) !== undefined || isSiteDictionary(f.path))
  // A hashed name implies its content; the page dictionary's stable name does not: compare bytes
  // where the source knows them, and never take an unknown page dictionary for this build's.
  const sameFile = (f: { path: string; sha256: string }): boolean =>
    newest.has(f.path) &&
    (newest.get(f.path) === undefined ? !isPageDictionary(f.path) : newest.get(f.path) === f.sha256)
  const same = newest.size > 0 && newest.size === current.length && current.every(sameFile)
  return same ? versions.filter((v) => v.generation > 0).map((v) => ({ ...v, generation: v.generation - 1 })) : versions
}

/**
 * Newest generations first, one entry per path, within `generations` (the `versions` option) and
 * the per-file cap: the larger of `generations` and {@link MIN_DICTIONARIES_PER_FILE}.
 */
export function pickDictionaries(versions: readonly PreviousVersion[], generations: number): PreviousVersion[] {
  const cap = Math.max(generations, MIN_DICTIONARIES_PER_FILE)
  const seen = new Set<string>()
  const picked: PreviousVersion[] = []
  for (const version of [...versions].sort((a, b) => a.generation - b.generation || (a.path < b.path ? -1 : 1))) {
    if (version.generation >= generations || seen.has(version.path)) continue
    seen.add(version.path)
    picked.push(version)
    if (picked.length === cap) break
  }
  return picked
}

/** One delta body: from the cache when it decodes to the file's bytes, else encoded in the pool. */
export async function encodeCached(
  cache: CompressionCache,
  pool: WorkPool,
  counters: { hits: number; misses: number },
  encoding: DictionaryEncoding,
  data: Buffer,
  file: ManifestFile,
  dictionary: Buffer,
  hash: Buffer,
  levels: Partial<Record<Format, number>> | undefined,
): Promise<Buffer> {
  // dcb and dcz take the level of the coding they extend (`levelOf`): the run's, else its default.
  const base = dictionaryCodecOf(encoding).levelOf
  const level = levels?.[base] ?? CODECS[base].defaultLevel
  const params = dictionaryEncoderParams(encoding, data.byteLength, dictionary.byteLength, { level, path: file.path })
  // The key covers both inputs: the new file and the dictionary.
  const key = cacheKey({
    contentSha256: `${file.sha256}+${hash.toString('hex')}`,
    format: encoding,
    settings: `${encoding}:${JSON.stringify(params)}`,
  })
  // As for variants: a delta from the cache is used only if it decodes to the file's bytes.
  const cached = await cache.get(key, async (payload) =>
    (await decodeWithDictionary(encoding, payload, dictionary)).equals(data),
  )
  if (cached) {
    counters.hits++
    return cached
  }
  counters.misses++
  const body = await pool.run(() => encodeWithDictionaryParams(encoding, data, dictionary, params))
  await cache.set(key, body)
  return body
}

/** Where the previous versions come from when the run names no source: `previous`, else the cache's history. */
export function versionSourceOf(
  options: ResolvedDeltaOptions,
  context: WriteDeltasContext,
  root: string,
): PreviousVersionSource | undefined {
  if (options.previous !== undefined) return folderVersionSource(options.previous)
  return context.cacheDir !== false ? cacheVersionSource(context.cacheDir, root) : undefined
}

/** What a visitor of the live version gets: the newest dictionary's smallest delta. */
export function deltaFileReport(
  file: ManifestFile,
  candidates: readonly PreviousVersion[],
  deltas: readonly ManifestDelta[],
  best: number,
): DeltaFileReport {
  const newest = candidates.find((c) => deltas.some((d) => d.dictionaryPath === c.path))!.path
  const smallest = deltas.find((d) => d.dictionaryPath === newest)!
  return {
    path: file.path,
    dictionaryPath: smallest.dictionaryPath,
    encoding: smallest.encoding,
    deltaBytes: smallest.size,
    brotliBytes: file.variants.find((v) => v.format === PREFERRED_FORMAT)?.size ?? best,
    originalBytes: file.size,
  }
}

/**
 * The codings of a file's deltas against `version`: every one, except against an asset
 * dictionary: dcb only when it is on. zstd at level 19 loads a dictionary of the site's code for
 * every file (on Vitest's UI most of a build's delta time), and Chromium accepts dcb wherever it
 * accepts dcz. Against an earlier version of the file itself every coding is written: a client
 * may take only one of them, and every held version must get a delta it can decode.
 */
export function encodingsAgainst(
  version: Pick<PreviousVersion, 'path'>,
  encodings: readonly DictionaryEncoding[],
): readonly DictionaryEncoding[] {
  const dcbOnly = isAssetDictionary(version.path)
  return dcbOnly && encodings.includes('dcb') ? ['dcb'] : encodings
}
