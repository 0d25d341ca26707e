// What a run leaves behind besides the files: its manifest, the report's counters, the
// DEBUG=preencode:run critical-path line, and the warning for symlinks the walk left out.
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import type { Format } from '../codecs/table.js'
import { createDebug } from '../debug.js'
import type { SkippedEntry } from '../fs/walk.js'
import type { CompressLogger } from '../logger.js'
import { MANIFEST_VERSION, type Manifest } from '../manifest/manifest.js'
import { recordSettings } from '../manifest/settings.js'
import type { ResolvedCompressOptions } from '../options/compress-options.js'
import type { WorkPool } from '../pool/pool.js'
import type { ReportCounters, SkipReason } from '../report/report.js'
import type { FileOutcome } from './file-job.js'

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string }
const GENERATOR = `preencode@${version}`

const debug = createDebug('preencode:run')

export function manifestOf(options: ResolvedCompressOptions, outcomes: FileOutcome[]): Manifest {
  return {
    version: MANIFEST_VERSION,
    generator: GENERATOR,
    formats: [...options.formats],
    files: outcomes.map((o) => o.entry).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    settings: recordSettings(options),
  }
}

export function counters(
  root: string,
  options: ResolvedCompressOptions,
  started: number,
  outcomes: FileOutcome[],
  pool: WorkPool,
  cleanup: { pruned: number; stale: number; tempFiles: number; originalsRemoved: { files: number; bytes: number } },
): ReportCounters {
  const skipped: Record<SkipReason, number> = { excluded: 0, incompressible: 0, 'below-threshold': 0, 'no-saving': 0 }
  const rejected: Partial<Record<Format, number>> = {}
  for (const outcome of outcomes) {
    if (outcome.skipped) skipped[outcome.skipped]++
    for (const format of outcome.rejected) rejected[format] = (rejected[format] ?? 0) + 1
  }
  const sum = (pick: (o: FileOutcome) => number): number => outcomes.reduce((total, o) => total + pick(o), 0)
  return {
    dir: root,
    formats: options.formats,
    durationMs: performance.now() - started,
    cacheEnabled: options.cacheDir !== false,
    cacheHits: sum((o) => o.cacheHits),
    cacheMisses: sum((o) => o.cacheMisses),
    prunedEntries: cleanup.pruned,
    variantsWritten: sum((o) => o.written),
    variantsUnchanged: sum((o) => o.unchanged),
    rejected,
    skipped,
    staleVariants: cleanup.stale,
    tempFiles: cleanup.tempFiles,
    originalsRemoved: cleanup.originalsRemoved,
    peakBytesInFlight: pool.peaks.peakBytes,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  }
}

/**
 * Where the time went (DEBUG=preencode:run): the floor of a cold run is the longer of the
 * longest single encode and all encode time spread over the slots; the ratio says how close the
 * schedule came to it.
 */
export function debugCriticalPath(outcomes: FileOutcome[], wallMs: number, slots: number): void {
  const encodeMs = outcomes.reduce((total, o) => total + o.encodeMs, 0)
  if (encodeMs === 0) {
    debug('encode phase %d ms, nothing encoded (all cache hits or skipped)', Math.round(wallMs))
    return
  }
  const longest = outcomes.reduce((a, o) => (o.longestEncodeMs > a.longestEncodeMs ? o : a))
  const floorMs = Math.max(longest.longestEncodeMs, encodeMs / slots)
  debug(
    'encode phase %d ms; encoders busy %d ms over %d slots; longest single encode %d ms (%s); floor %d ms; phase / floor %s',
    Math.round(wallMs),
    Math.round(encodeMs),
    slots,
    Math.round(longest.longestEncodeMs),
    longest.entry.path,
    Math.round(floorMs),
    (wallMs / floorMs).toFixed(2),
  )
}

/** One warning for what the walk left out of the site: symlinks out of the root or dangling. */
export function warnSkipped(logger: CompressLogger, root: string, skipped: readonly SkippedEntry[]): void {
  const outside = skipped.filter((s) => s.reason === 'symlink-outside' || s.reason === 'symlink-dangling')
  if (outside.length === 0) return
  const shown = outside.slice(0, 5).map((s) => (s.target ? `${s.path} -> ${s.target}` : `${s.path} (dangling)`))
  logger.warn(
    `skipped ${outside.length} symlink${outside.length === 1 ? '' : 's'} leading out of ${root} or nowhere: ${shown.join(', ')}${outside.length > 5 ? ', …' : ''}. ` +
      'preencode never reads or writes through them; copy those files into the site if they belong to it.',
  )
}
