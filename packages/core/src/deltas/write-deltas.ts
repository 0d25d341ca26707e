/**
 * Delta updates for versioned assets (RFC 9842). After `compressDirectory`, for every
 * content-hashed asset: announce it as a dictionary for its next versions (`useAsDictionary` in
 * the manifest, served as `Use-As-Dictionary`), and if it is a new version of a file visitors may
 * hold an older version of, write `.dcb`/`.dcz` deltas against those versions. A delta is written
 * only when smaller than every other representation; stale deltas are removed; the manifest is
 * rewritten atomically. The previous versions are read from a deployed folder or from the
 * cache's build history, so a fresh CI runner with a persisted cache or a reachable deploy works.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { removeStaleDeltas } from './stale-deltas.js'
import { dictionaryId, sha256Of } from '../codecs/dictionary-hash.js'
import { cacheWriteWarning, openCache, type CompressionCache } from '../cache/cache.js'
import { deltaPath, originalOfDeltaPath } from './delta-paths.js'
import { journaledFiles, openJournal } from '../fs/journal.js'
import type { ResolvedDeltaOptions } from '../options/delta-options.js'
import type { DeltaFileReport, DeltaReport } from '../report/delta-report.js'
import { acceptsDictionary, assertDictionarySupport } from '../codecs/dictionary.js'
import { MANIFEST_FILENAME, type Manifest, type ManifestDelta, type ManifestFile } from '../manifest/manifest.js'
import { recordDeltas } from '../manifest/settings.js'
import { WorkPool } from '../pool/pool.js'
import { PREFERRED_FORMAT, type Format } from '../codecs/table.js'
import { DEFAULT_COMPRESS_OPTIONS, type ResolvedCompressOptions } from '../options/compress-options.js'
import { folderVersionSource, type PreviousVersion, type PreviousVersionSource } from './previous-versions.js'
import { isPageDictionary, PAGE_DICTIONARY_MATCH, PAGE_DICTIONARY_MATCH_DEST } from './page-dictionary.js'
import { versionedAsset } from '../http/use-as-dictionary.js'
import { cacheVersionSource, rememberVersions } from './version-store.js'
import { writeFileAtomically } from '../fs/write.js'
import { withSiteLock } from '../fs/site-lock.js'
import { encodeCached, pickDictionaries, withoutThisBuild } from './delta-candidates.js'

/**
 * The run's own settings: pass the resolved compress options of the run (`{ ...options, logger }`),
 * so deltas use its cache, concurrency and levels; and its cache and pool when it has them open.
 */
export type WriteDeltasContext = Pick<ResolvedCompressOptions, 'cacheDir'> &
  Partial<Pick<ResolvedCompressOptions, 'cacheMaxBytes' | 'concurrency'>> & {
    /** The run's levels: dcb and dcz take those of the codings they extend. @default each codec's default */
    levels?: Partial<Record<Format, number>> | undefined
    /** The run's compression cache, already open. @default opened from `cacheDir` */
    cache?: CompressionCache | undefined
    /** The run's work pool. @default a pool of `concurrency` */
    pool?: WorkPool | undefined
    /** Overrides `options.previous` and the cache history, e.g. a deploy target's objects. */
    source?: PreviousVersionSource | undefined
    /**
     * Where a warning goes: the build history cannot be written (a read-only or full cache, a
     * file in its place). The deltas of this run are written anyway. @default silent
     */
    logger?: { warn(message: string): void } | undefined
  }

/** The manifest with the deltas recorded, and the delta report. */
export interface WriteDeltasResult {
  manifest: Manifest
  report: DeltaReport
}

/** Adds deltas to the site at `dir` described by `manifest` (as `compressDirectory` left it). */
export async function writeDeltas(
  dir: string,
  manifest: Manifest,
  options: ResolvedDeltaOptions,
  context: WriteDeltasContext,
): Promise<WriteDeltasResult> {
  assertDictionarySupport('deltas')
  return await withSiteLock(
    dir,
    (message) => context.logger?.warn(message),
    () => writeDeltasLocked(dir, manifest, options, context),
    true,
  )
}

async function writeDeltasLocked(
  dir: string,
  manifest: Manifest,
  options: ResolvedDeltaOptions,
  context: WriteDeltasContext,
): Promise<WriteDeltasResult> {
  const started = performance.now()
  const root = resolve(dir)
  // Deltas a killed run wrote and journaled but no manifest records: rewritten or removed below.
  const recorded = new Set(manifest.files.flatMap((f) => (f.deltas ?? []).map((d) => d.path)))
  const leftovers = (await journaledFiles(root)).filter((p) => originalOfDeltaPath(p) !== undefined && !recorded.has(p))
  const journal = openJournal(root)
  const cache =
    context.cache ?? openCache(context.cacheDir, context.cacheMaxBytes ?? DEFAULT_COMPRESS_OPTIONS.cacheMaxBytes)
  const pool =
    context.pool ?? new WorkPool({ ...(context.concurrency === undefined ? {} : { concurrency: context.concurrency }) })
  const source =
    context.source ??
    (options.previous !== undefined
      ? folderVersionSource(options.previous)
      : context.cacheDir !== false
        ? cacheVersionSource(context.cacheDir, root)
        : undefined)
  const previous = withoutThisBuild(source ? await source.list() : [], manifest)
  const byKey = new Map<string, PreviousVersion[]>()
  for (const version of previous) {
    const key = versionedAsset(version.path)?.key
    if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), version])
  }
  // Read once each: several files can share a dictionary. Keyed by path (previous page
  // dictionaries carry `@<generation>`, since they share one name).
  const dictionaryBytes = new Map<string, Promise<Buffer | undefined>>()
  const readDictionary = (version: PreviousVersion): Promise<Buffer | undefined> => {
    let bytes = dictionaryBytes.get(version.path)
    if (!bytes) dictionaryBytes.set(version.path, (bytes = version.read()))
    return bytes
  }

  const counters = { hits: 0, misses: 0, written: 0, notSmaller: 0 }
  const keep = new Set<string>()
  const fileReports: DeltaFileReport[] = []
  const pageReports: DeltaFileReport[] = []
  // Deltas and announcements are recomputed from scratch: drop what an earlier run recorded.
  const files: ManifestFile[] = manifest.files.map(
    ({ deltas: _d, useAsDictionary: _u, matchDest: _m, ...file }) => file,
  )

  /** Writes `file`'s deltas against `candidates` (newest first); reports the newest one's smallest. */
  const deltasAgainst = async (
    file: ManifestFile,
    candidates: readonly PreviousVersion[],
    reports: DeltaFileReport[],
  ): Promise<void> => {
    const data = await readFile(join(root, file.path))
    const best = Math.min(file.size, ...file.variants.map((v) => v.size))
    const deltas: ManifestDelta[] = []
    const seen = new Set<string>()
    for (const version of candidates) {
      const dictionary = await readDictionary(version)
      if (!dictionary || dictionary.byteLength === 0 || dictionary.byteLength > options.maxDictionaryBytes) continue
      const hash = sha256Of(dictionary)
      const id = dictionaryId(hash)
      // The same bytes under two names, or the file itself: one set of deltas, or none.
      if (seen.has(id) || hash.toString('hex') === file.sha256) continue
      seen.add(id)
      for (const encoding of options.encodings) {
        if (!acceptsDictionary(encoding, dictionary)) continue
        const body = await encodeCached(cache, pool, counters, encoding, data, file, dictionary, hash, context.levels)
        if (body.byteLength >= best) {
          counters.notSmaller++
          continue
        }
        const path = deltaPath(file.path, id, encoding)
        await mkdir(dirname(join(root, path)), { recursive: true })
        await journal.record(path, body)
        await writeFileAtomically(join(root, path), body, file.mtimeMs)
        keep.add(path)
        counters.written++
        deltas.push({
          encoding,
          dictionary: id,
          dictionaryPath: version.path,
          path,
          size: body.byteLength,
          sha256: createHash('sha256').update(body).digest('hex'),
        })
      }
    }
    if (deltas.length === 0) return
    deltas.sort((a, b) => a.size - b.size || (a.path < b.path ? -1 : 1))
    file.deltas = deltas
    // What a visitor of the live version gets: the newest dictionary's smallest delta.
    const newest = candidates.find((c) => deltas.some((d) => d.dictionaryPath === c.path))!.path
    const smallest = deltas.find((d) => d.dictionaryPath === newest)!
    reports.push({
      path: file.path,
      dictionaryPath: smallest.dictionaryPath,
      encoding: smallest.encoding,
      deltaBytes: smallest.size,
      brotliBytes: file.variants.find((v) => v.format === PREFERRED_FORMAT)?.size ?? best,
      originalBytes: file.size,
    })
  }

  const jobs: Promise<void>[] = []
  for (const file of files) {
    const asset = file.originalOnDisk && file.cacheClass === 'immutable' ? versionedAsset(file.path) : undefined
    if (!asset) continue
    if (file.size <= options.maxDictionaryBytes) file.useAsDictionary = asset.match
    const versions = byKey.get(asset.key) ?? []
    // The visitor already holds this very file: nothing to send.
    if (versions.some((v) => v.path === file.path)) continue
    const candidates = pickDictionaries(versions, options.versions)
    if (candidates.length > 0) jobs.push(deltasAgainst(file, candidates, fileReports))
  }
  const pageDictionary = options.pages ? files.find((f) => isPageDictionary(f.path) && f.originalOnDisk) : undefined
  if (pageDictionary) {
    pageDictionary.useAsDictionary = PAGE_DICTIONARY_MATCH
    pageDictionary.matchDest = [...PAGE_DICTIONARY_MATCH_DEST]
    // The dictionary of this build, then those visitors may still hold from earlier ones.
    const current: PreviousVersion = {
      path: pageDictionary.path,
      generation: -1,
      read: () => readFile(join(root, pageDictionary.path)),
    }
    const candidates = [
      current,
      ...pickDictionaries(
        previous.filter((v) => isPageDictionary(v.path)).map((v) => ({ ...v, path: `${v.path}@${v.generation}` })),
        options.versions,
      ),
    ]
    for (const file of files) {
      if (file.originalOnDisk && file.cacheClass === 'html' && /\.html?$/i.test(file.path))
        jobs.push(deltasAgainst(file, candidates, pageReports))
    }
  }
  try {
    await Promise.all(jobs)
  } finally {
    await journal.close()
  }

  const staleRemoved = await removeStaleDeltas(root, manifest, keep, leftovers)
  const next: Manifest = {
    ...manifest,
    files,
    ...(manifest.settings ? { settings: { ...manifest.settings, deltas: recordDeltas(options) } } : {}),
  }
  await writeFileAtomically(join(root, MANIFEST_FILENAME), `${JSON.stringify(next, null, 2)}\n`)
  await journal.finish()
  if (options.remember && context.cacheDir !== false) {
    const remembered = files
      .filter((f) => f.useAsDictionary !== undefined)
      .map((f) => ({ path: f.path, sha256: f.sha256, read: () => readFile(join(root, f.path)) }))
    // A cache that cannot be written costs the next build its deltas, never this one.
    await rememberVersions(context.cacheDir, root, remembered, options.versions).catch((error: unknown) => {
      context.logger?.warn(cacheWriteWarning(context.cacheDir as string, error))
    })
  }
  if (counters.misses > 0) await cache.prune()
  fileReports.sort((a, b) => (a.path < b.path ? -1 : 1))
  const sum = (pick: (f: DeltaFileReport) => number): number => fileReports.reduce((total, f) => total + pick(f), 0)
  return {
    manifest: next,
    report: {
      source: source?.description,
      previousVersions: previous.length,
      dictionaries: files.filter((f) => f.useAsDictionary !== undefined).length,
      files: fileReports,
      pages: pageReports.sort((a, b) => (a.path < b.path ? -1 : 1)),
      deltasWritten: counters.written,
      notSmaller: counters.notSmaller,
      staleRemoved,
      cacheHits: counters.hits,
      cacheMisses: counters.misses,
      durationMs: performance.now() - started,
      totals: {
        brotliBytes: sum((f) => f.brotliBytes),
        deltaBytes: sum((f) => f.deltaBytes),
        originalBytes: sum((f) => f.originalBytes),
      },
    },
  }
}
