// One `writeDeltas` run as named steps over its state: `open` (leftovers, journal, cache, pool,
// previous versions) -> `encodeAll` (the deltas of every versioned asset and page) -> `commit`
// (stale deltas removed, manifest rewritten, history remembered, report).
import { mkdir, readFile, stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { type CompressionCache, cacheWriteWarning } from '../cache/cache.js'
import { openRunCache } from '../cache/run-cache.js'
import { acceptsDictionary } from '../codecs/dictionary.js'
import { dictionaryId, sha256Of } from '../codecs/dictionary-hash.js'
import { journaledFiles, openJournal, type RunJournal } from '../fs/journal.js'
import { variantModeOf, writeFileAtomically } from '../fs/write.js'
import { sha256Hex } from '../hash.js'
import { isAssetDictionary } from '../http/page-dictionary-name.js'
import { versionedAsset } from '../http/use-as-dictionary.js'
import { MANIFEST_FILENAME, type Manifest, type ManifestDelta, type ManifestFile } from '../manifest/manifest.js'
import { recordDeltas } from '../manifest/settings.js'
import type { ResolvedDeltaOptions } from '../options/delta-options.js'
import { WorkPool } from '../pool/pool.js'
import type { DeltaFileReport, DeltaReport } from '../report/delta-report.js'
import { ASSET_DICTIONARY_MATCH, isVersionedCode } from './asset-dictionary.js'
import {
  deltaFileReport,
  encodeCached,
  encodingsAgainst,
  pickDictionaries,
  versionSourceOf,
  withoutThisBuild,
} from './delta-candidates.js'
import type { WriteDeltasContext, WriteDeltasResult } from './delta-context.js'
import { deltaPath, originalOfDeltaPath } from './delta-paths.js'
import { isPageDictionary, PAGE_DICTIONARY_MATCH, PAGE_DICTIONARY_MATCH_DEST } from './page-dictionary.js'
import type { PreviousVersion, PreviousVersionSource } from './previous-versions.js'
import { removeStaleDeltas } from './stale-deltas.js'
import { rememberVersions } from './version-store.js'

/** What `open` finds and opens before any delta is encoded. */
interface OpenedRun {
  started: number
  root: string
  /** Deltas a killed run wrote and journaled but no manifest records: rewritten or removed. */
  leftovers: string[]
  journal: RunJournal
  cache: CompressionCache
  pool: WorkPool
  source: PreviousVersionSource | undefined
  previous: PreviousVersion[]
}

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : 1)

export class DeltaRun {
  private readonly counters = { hits: 0, misses: 0, written: 0, notSmaller: 0 }
  private readonly keep = new Set<string>()
  private readonly fileReports: DeltaFileReport[] = []
  private readonly pageReports: DeltaFileReport[] = []
  /**
   * Read once each: several files can share a dictionary. Keyed by path (previous page
   * dictionaries carry `@<generation>`, since they share one name).
   */
  private readonly dictionaryBytes = new Map<string, Promise<Buffer | undefined>>()
  /** Deltas and announcements are recomputed from scratch: what an earlier run recorded is dropped. */
  private readonly files: ManifestFile[]
  private readonly root: string

  private constructor(
    private readonly manifest: Manifest,
    private readonly options: ResolvedDeltaOptions,
    private readonly context: WriteDeltasContext,
    private readonly run: OpenedRun,
  ) {
    this.root = run.root
    this.files = manifest.files.map(({ deltas: _d, useAsDictionary: _u, matchDest: _m, ...file }) => file)
  }

  static async open(
    dir: string,
    manifest: Manifest,
    options: ResolvedDeltaOptions,
    context: WriteDeltasContext,
  ): Promise<DeltaRun> {
    const started = performance.now()
    const root = resolve(dir)
    const recorded = new Set(manifest.files.flatMap((f) => (f.deltas ?? []).map((d) => d.path)))
    const leftovers = (await journaledFiles(root)).filter(
      (p) => originalOfDeltaPath(p) !== undefined && !recorded.has(p),
    )
    const journal = openJournal(root)
    // Without the caller's, the cache a run opens: the shared bucket too when configured (`close` ends it).
    const cache = context.cache ?? openRunCache(context, { warn: (message) => context.logger?.warn(message) }).cache
    const pool =
      context.pool ??
      new WorkPool({ ...(context.concurrency === undefined ? {} : { concurrency: context.concurrency }) })
    const source = context.source ?? versionSourceOf(options, context, root)
    const previous = withoutThisBuild(source ? await source.list() : [], manifest)
    const run = { started, root, leftovers, journal, cache, pool, source, previous }
    return new DeltaRun(manifest, options, context, run)
  }

  /**
   * Writes every delta: versioned assets against their older versions (scripts and styles also
   * against the asset dictionaries), the asset dictionary against the earlier ones, pages against
   * the page dictionary.
   */
  async encodeAll(): Promise<void> {
    const { current, earlier } = this.assetDictionaries()
    const jobs = [...this.assetJobs(earlier), ...this.pageJobs()]
    if (current && earlier.length > 0) jobs.push(this.deltasAgainst(current, earlier, this.fileReports))
    try {
      await Promise.all(jobs)
    } finally {
      await this.run.journal.close()
    }
  }

  /** Closes the cache `open` opened (a shared tier's connections); the caller's stays open. */
  close(): void {
    if (!this.context.cache) this.run.cache.close?.()
  }

  /** Removes stale deltas, rewrites the manifest, remembers this build's versions; the result. */
  async commit(): Promise<WriteDeltasResult> {
    const { manifest, options, files } = this
    const staleRemoved = await removeStaleDeltas(this.root, manifest, this.keep, this.run.leftovers)
    const next: Manifest = {
      ...manifest,
      files,
      ...(manifest.settings ? { settings: { ...manifest.settings, deltas: recordDeltas(options) } } : {}),
    }
    await writeFileAtomically(join(this.root, MANIFEST_FILENAME), `${JSON.stringify(next, null, 2)}\n`)
    await this.run.journal.finish()
    await this.remember()
    if (this.counters.misses > 0) await this.run.cache.prune()
    return { manifest: next, report: this.report(staleRemoved) }
  }

  private assetJobs(assetDictionaries: readonly PreviousVersion[]): Promise<void>[] {
    const byKey = new Map<string, PreviousVersion[]>()
    for (const version of this.run.previous) {
      const key = versionedAsset(version.path)?.key
      if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), version])
    }
    const jobs: Promise<void>[] = []
    for (const file of this.files) {
      const asset = file.originalOnDisk && file.cacheClass === 'immutable' ? versionedAsset(file.path) : undefined
      if (!asset) continue
      if (file.size <= this.options.maxDictionaryBytes) file.useAsDictionary = asset.match
      const versions = byKey.get(asset.key) ?? []
      // The visitor already holds this very file: nothing to send.
      if (versions.some((v) => v.path === file.path)) continue
      const own = pickDictionaries(versions, this.options.versions)
      // Earlier asset dictionaries, for a visitor holding no version of this name (a new stem, a
      // chunk never loaded): all in the window when the name is new, else the newest only.
      const code = isVersionedCode(file.path) ? assetDictionaries : []
      const candidates = [...own, ...(own.length > 0 ? code.slice(0, 1) : code)]
      if (candidates.length > 0) jobs.push(this.deltasAgainst(file, candidates, this.fileReports))
    }
    return jobs
  }

  /**
   * This build's asset dictionary (announced here: it is for the next build) and those of the
   * earlier builds visitors may hold, newest first; none when `assets` is off. An earlier one with
   * the same bytes as a file gets no delta for it (`deltasAgainst` skips the file itself).
   */
  private assetDictionaries(): { current?: ManifestFile; earlier: PreviousVersion[] } {
    const current = this.options.assets
      ? this.files.find((f) => isAssetDictionary(f.path) && f.originalOnDisk)
      : undefined
    if (!current) return { earlier: [] }
    current.useAsDictionary = ASSET_DICTIONARY_MATCH
    const earlier = this.run.previous.filter((v) => isAssetDictionary(v.path))
    return { current, earlier: pickDictionaries(earlier, this.options.versions) }
  }

  private pageJobs(): Promise<void>[] {
    const { files, options, root } = this
    const pageDictionary = options.pages ? files.find((f) => isPageDictionary(f.path) && f.originalOnDisk) : undefined
    if (!pageDictionary) return []
    pageDictionary.useAsDictionary = PAGE_DICTIONARY_MATCH
    pageDictionary.matchDest = [...PAGE_DICTIONARY_MATCH_DEST]
    // The dictionary of this build, then those visitors may still hold from earlier ones.
    const current: PreviousVersion = {
      path: pageDictionary.path,
      generation: -1,
      read: () => readFile(join(root, pageDictionary.path)),
    }
    const earlier = this.run.previous
      .filter((v) => isPageDictionary(v.path))
      .map((v) => ({ ...v, path: `${v.path}@${v.generation}` }))
    const candidates = [current, ...pickDictionaries(earlier, options.versions)]
    return files
      .filter((file) => file.originalOnDisk && file.cacheClass === 'html' && /\.html?$/i.test(file.path))
      .map((file) => this.deltasAgainst(file, candidates, this.pageReports))
  }

  private readDictionary(version: PreviousVersion): Promise<Buffer | undefined> {
    let bytes = this.dictionaryBytes.get(version.path)
    if (!bytes) this.dictionaryBytes.set(version.path, (bytes = version.read()))
    return bytes
  }

  /** Writes `file`'s deltas against `candidates` (newest first); reports the newest one's smallest. */
  private async deltasAgainst(
    file: ManifestFile,
    candidates: readonly PreviousVersion[],
    reports: DeltaFileReport[],
  ): Promise<void> {
    const original = join(this.root, file.path)
    const [data, { mode }] = await Promise.all([readFile(original), stat(original)])
    const best = Math.min(file.size, ...file.variants.map((v) => v.size))
    const deltas: ManifestDelta[] = []
    const seen = new Set<string>()
    for (const version of candidates) {
      const dictionary = await this.readDictionary(version)
      if (!dictionary || dictionary.byteLength === 0 || dictionary.byteLength > this.options.maxDictionaryBytes)
        continue
      const hash = sha256Of(dictionary)
      const id = dictionaryId(hash)
      // The same bytes under two names, or the file itself: one set of deltas, or none.
      if (seen.has(id) || hash.toString('hex') === file.sha256) continue
      seen.add(id)
      for (const encoding of encodingsAgainst(version, this.options.encodings)) {
        if (!acceptsDictionary(encoding, dictionary)) continue
        const { cache, pool } = this.run
        const body = await encodeCached(
          cache,
          pool,
          this.counters,
          encoding,
          data,
          file,
          dictionary,
          hash,
          this.context.levels,
        )
        if (body.byteLength >= best) {
          this.counters.notSmaller++
          continue
        }
        const path = await this.writeDelta(file, deltaPath(file.path, id, encoding), body, variantModeOf(mode))
        const sha256 = sha256Hex(body)
        deltas.push({ encoding, dictionary: id, dictionaryPath: version.path, path, size: body.byteLength, sha256 })
      }
    }
    if (deltas.length === 0) return
    deltas.sort((a, b) => a.size - b.size || (a.path < b.path ? -1 : 1))
    file.deltas = deltas
    reports.push(deltaFileReport(file, candidates, deltas, best))
  }

  /** A delta is written like a variant: its original's mtime and mode (`variantModeOf`). */
  private async writeDelta(file: ManifestFile, path: string, body: Buffer, mode: number): Promise<string> {
    await mkdir(dirname(join(this.root, path)), { recursive: true })
    await this.run.journal.record(path, body)
    await writeFileAtomically(join(this.root, path), body, file.mtimeMs, mode)
    this.keep.add(path)
    this.counters.written++
    return path
  }

  /** Records this build's dictionaries in the cache's history, for the next build's deltas. */
  private async remember(): Promise<void> {
    const { cacheDir } = this.context
    if (!this.options.remember || cacheDir === false) return
    const remembered = this.files
      .filter((f) => f.useAsDictionary !== undefined)
      .map((f) => ({ path: f.path, sha256: f.sha256, read: () => readFile(join(this.root, f.path)) }))
    // A cache that cannot be written costs the next build its deltas, never this one.
    await rememberVersions(cacheDir, this.root, remembered, this.options.versions).catch((error: unknown) => {
      this.context.logger?.warn(cacheWriteWarning(cacheDir, error))
    })
  }

  private report(staleRemoved: DeltaReport['staleRemoved']): DeltaReport {
    const { counters, fileReports } = this
    fileReports.sort(byPath)
    const sum = (pick: (f: DeltaFileReport) => number): number => fileReports.reduce((total, f) => total + pick(f), 0)
    return {
      source: this.run.source?.description,
      previousVersions: this.run.previous.length,
      dictionaries: this.files.filter((f) => f.useAsDictionary !== undefined).length,
      files: fileReports,
      pages: this.pageReports.sort(byPath),
      deltasWritten: counters.written,
      notSmaller: counters.notSmaller,
      staleRemoved,
      cacheHits: counters.hits,
      cacheMisses: counters.misses,
      durationMs: performance.now() - this.run.started,
      totals: {
        brotliBytes: sum((f) => f.brotliBytes),
        deltaBytes: sum((f) => f.deltaBytes),
        originalBytes: sum((f) => f.originalBytes),
      },
    }
  }
}
