import type { DictionaryEncoding } from '../codecs/dictionary.js'
import { formatBytes, formatDuration } from './units.js'

/** One changed file: what a returning visitor downloads with and without its dictionary. */
export interface DeltaFileReport {
  path: string
  /** The newest previous version the smallest delta was made against. */
  dictionaryPath: string
  encoding: DictionaryEncoding
  /** The smallest delta against the newest previous version. */
  deltaBytes: number
  /** The brotli variant's size (else the smallest variant's, else the original's). */
  brotliBytes: number
  originalBytes: number
}

/** The report of one `writeDeltas` run (RFC 9842 delta updates). */
export interface DeltaReport {
  /** Where the previous versions came from; undefined when there was none. */
  source: string | undefined
  /** Previous versions of versioned assets the source knew (every generation). */
  previousVersions: number
  /** Files announced with `Use-As-Dictionary`. */
  dictionaries: number
  /** Changed files that got at least one delta. */
  files: DeltaFileReport[]
  /** HTML pages with deltas against the shared page dictionary (the current one in the report). */
  pages: DeltaFileReport[]
  /** Delta files written (every encoding, every previous version). */
  deltasWritten: number
  /** Deltas left out because they were not smaller than the file's best variant. */
  notSmaller: number
  staleRemoved: number
  cacheHits: number
  cacheMisses: number
  durationMs: number
  /** Sums over `files`: the update as brotli vs as deltas. */
  totals: { brotliBytes: number; deltaBytes: number; originalBytes: number }
}

/** Text lines for the build log. */
export function formatDeltaReport(report: DeltaReport, top = 10): string {
  const pages = report.pages.length === 0 ? '' : `\n${pagesLine(report.pages)}`
  return `${assetLines(report, top)}${pages}`
}

function pagesLine(pages: readonly DeltaFileReport[]): string {
  const br = pages.reduce((t, p) => t + p.brotliBytes, 0)
  const delta = pages.reduce((t, p) => t + p.deltaBytes, 0)
  return `dictionary transport: ${pages.length} pages against the shared page dictionary: ${formatBytes(br)} brotli -> ${formatBytes(delta)} (${br > 0 ? ((delta / br) * 100).toFixed(1) : '0'}%)`
}

function assetLines(report: DeltaReport, top: number): string {
  const { totals } = report
  if (report.files.length === 0) {
    return `dictionary transport: ${report.dictionaries} files announced as dictionaries; no deltas (${report.source && report.previousVersions > 0 ? `no changed file has a previous version in ${report.source}` : 'no previous versions known yet: the next build has them'})`
  }
  const ratio = totals.brotliBytes > 0 ? ((totals.deltaBytes / totals.brotliBytes) * 100).toFixed(1) : '0'
  const lines = [
    `dictionary transport: ${report.files.length} changed files as deltas: ${formatBytes(totals.brotliBytes)} brotli -> ${formatBytes(totals.deltaBytes)} (${ratio}%), ${report.deltasWritten} delta files, previous versions from ${report.source ?? '?'} (${formatDuration(report.durationMs)}, cache ${report.cacheHits} hits / ${report.cacheMisses} misses)`,
  ]
  for (const file of [...report.files].sort((a, b) => b.brotliBytes - a.brotliBytes).slice(0, top)) {
    lines.push(
      `  ${file.path}  br ${formatBytes(file.brotliBytes)} -> ${file.encoding} ${formatBytes(file.deltaBytes)}`,
    )
  }
  return lines.join('\n')
}
