import { styleText } from 'node:util'
import { ALL_FORMATS, CODECS, type Format } from '../codecs/table.js'
import type { Manifest } from '../manifest/manifest.js'
import type { BudgetResult } from '../options/budgets.js'
import { printablePath } from '../paths.js'
import { formatBudgetTable } from './budget-report.js'
import { formatBytes, formatDuration } from './units.js'

/** Why a file got no variant at all. */
export type SkipReason = 'excluded' | 'incompressible' | 'below-threshold' | 'no-saving'

interface FormatReport {
  format: Format
  /** Files that have this variant. */
  files: number
  /** Sum of the originals' sizes of those files. */
  bytesBefore: number
  /** Sum of the variants' sizes. */
  bytesAfter: number
  /** 100 * (1 - after / before), one decimal; 0 when there is nothing. */
  savedPercent: number
  /** Variants computed but not written: not smaller, or saving below `minSaving`. */
  rejected: number
}

interface LargestFile {
  path: string
  size: number
  /** The file's variants, smallest first. */
  variants: { format: Format; size: number }[]
}

/** The report of one compress run: per-format savings, the largest files, the cache, what was skipped or removed, memory, budgets. */
export interface CompressReport {
  /** Absolute directory that was compressed. */
  dir: string
  /** One entry per requested format, in the order requested. */
  formats: FormatReport[]
  /** Originals accounted for in the manifest. */
  files: number
  /** Originals that got at least one variant. */
  compressedFiles: number
  /** Sum of all originals' sizes. */
  bytesOriginal: number
  /** Variants written to disk this run (new or changed). */
  variantsWritten: number
  /** Variants already on disk with the right bytes and mtime, left untouched. */
  variantsUnchanged: number
  /** The largest compressed files, largest first. */
  largest: LargestFile[]
  durationMs: number
  cache: {
    enabled: boolean
    /** Variants (file x format) whose bytes came from the cache. */
    hits: number
    /** Variants that had to be compressed. */
    misses: number
    /** Entries removed by the size bound after the run. */
    prunedEntries: number
  }
  /** Files with no variant, by reason. */
  skipped: Record<SkipReason, number>
  removed: {
    /** Sidecars of changed or deleted originals, or of formats no longer requested. */
    staleVariants: number
    /** Temp files left by an interrupted run. */
    tempFiles: number
  }
  /** `keepOriginals: false`: originals deleted from disk (this run) and the bytes that freed. */
  originalsRemoved: { files: number; bytes: number }
  /** Most bytes of originals held in memory at once (the pool's byte budget at work). */
  peakBytesInFlight: number
  /**
   * The process's peak resident memory when the run ended (`process.resourceUsage().maxRSS`):
   * everything else in the process included, e.g. Vite's own memory under the plugin.
   */
  peakRssBytes: number
  /** The size budgets' verdict, when `budgets` were given. */
  budgets?: BudgetResult
  /**
   * Late files: files that went away or changed while the run read them (another tool was still
   * writing the folder). Skipped — no variant, not in the manifest, never a failure — so the
   * next look at the folder (the plugin's, or `reconcileManifest`'s) compresses them. Present
   * only when there were some.
   */
  late?: string[]
}

export interface ReportCounters {
  dir: string
  formats: Format[]
  durationMs: number
  cacheEnabled: boolean
  cacheHits: number
  cacheMisses: number
  prunedEntries: number
  variantsWritten: number
  variantsUnchanged: number
  rejected: Partial<Record<Format, number>>
  skipped: Record<SkipReason, number>
  staleVariants: number
  tempFiles: number
  originalsRemoved: { files: number; bytes: number }
  peakBytesInFlight: number
  peakRssBytes: number
  /** See `CompressReport.late`. */
  late?: string[]
}

/** How many of the largest files the report lists by default. */
const DEFAULT_REPORT_TOP = 10

/** Assembles the report from the manifest (sizes) and the run's counters. Pure. */
export function buildReport(manifest: Manifest, counters: ReportCounters, top = DEFAULT_REPORT_TOP): CompressReport {
  const formats = counters.formats.map((format): FormatReport => {
    let files = 0
    let bytesBefore = 0
    let bytesAfter = 0
    for (const file of manifest.files) {
      const variant = file.variants.find((v) => v.format === format)
      if (!variant) continue
      files++
      bytesBefore += file.size
      bytesAfter += variant.size
    }
    return {
      format,
      files,
      bytesBefore,
      bytesAfter,
      savedPercent: percentSaved(bytesBefore, bytesAfter),
      rejected: counters.rejected[format] ?? 0,
    }
  })
  const compressed = manifest.files.filter((f) => f.variants.length > 0)
  const largest = [...compressed]
    .sort((a, b) => b.size - a.size || a.path.localeCompare(b.path))
    .slice(0, top)
    .map((f) => ({ path: f.path, size: f.size, variants: f.variants.map((v) => ({ format: v.format, size: v.size })) }))
  return {
    dir: counters.dir,
    formats,
    files: manifest.files.length,
    compressedFiles: compressed.length,
    bytesOriginal: manifest.files.reduce((sum, f) => sum + f.size, 0),
    variantsWritten: counters.variantsWritten,
    variantsUnchanged: counters.variantsUnchanged,
    largest,
    durationMs: Math.round(counters.durationMs),
    cache: {
      enabled: counters.cacheEnabled,
      hits: counters.cacheHits,
      misses: counters.cacheMisses,
      prunedEntries: counters.prunedEntries,
    },
    skipped: { ...counters.skipped },
    removed: { staleVariants: counters.staleVariants, tempFiles: counters.tempFiles },
    originalsRemoved: { ...counters.originalsRemoved },
    peakBytesInFlight: counters.peakBytesInFlight,
    peakRssBytes: counters.peakRssBytes,
    ...(counters.late?.length ? { late: [...counters.late] } : {}),
  }
}

function percentSaved(before: number, after: number): number {
  return before === 0 ? 0 : Math.round(1000 * (1 - after / before)) / 10
}

export interface FormatReportOptions {
  /**
   * Colour the headline and table header (node:util styleText). Callers decide from the stream;
   * `NO_COLOR` turns it off regardless.
   * @default false
   */
  color?: boolean
  /**
   * How many of the largest files to list.
   * @default 5
   */
  top?: number
}

/** The one-line summary: what the run did, and whether the cache made it free. */
function summaryLine(report: CompressReport): string {
  const variants = report.variantsWritten + report.variantsUnchanged
  const { hits, misses } = report.cache
  const work =
    hits > 0 && misses === 0
      ? `all ${hits} cached, nothing compressed`
      : report.cache.enabled
        ? `${misses} compressed, ${hits} from cache`
        : `${misses} compressed, cache off`
  return `preencode: ${report.compressedFiles} of ${report.files} files -> ${variants} variants in ${formatDuration(report.durationMs)} (${work})`
}

/** A compact, aligned table of the report. Pure: returns the string, prints nothing. */
export function formatReport(report: CompressReport, options: FormatReportOptions = {}): string {
  const color = (options.color ?? false) && !process.env.NO_COLOR
  const bold = (text: string): string => (color ? styleText('bold', text, { validateStream: false }) : text)
  const dim = (text: string): string => (color ? styleText('dim', text, { validateStream: false }) : text)
  const lines = [bold(summaryLine(report))]

  const rows: string[][] = [['format', 'files', 'before', 'after', 'saved']]
  for (const f of report.formats) {
    rows.push([
      f.format,
      String(f.files),
      formatBytes(f.bytesBefore),
      formatBytes(f.bytesAfter),
      `${f.savedPercent.toFixed(1)}%`,
    ])
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  rows.forEach((row, index) => {
    const text = `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}`
    lines.push(index === 0 ? dim(text) : text)
  })

  const top = report.largest.slice(0, options.top ?? 5)
  if (top.length > 0) {
    lines.push(dim('  largest:'))
    const pathWidth = Math.min(60, Math.max(...top.map((f) => printablePath(f.path).length)))
    for (const file of top) {
      const variants = [...file.variants]
        .sort((a, b) => ALL_FORMATS.indexOf(a.format) - ALL_FORMATS.indexOf(b.format))
        .map((v) => `${CODECS[v.format].extension.slice(1)} ${formatBytes(v.size)}`)
        .join('  ')
      lines.push(
        `    ${truncateMiddle(printablePath(file.path), pathWidth).padEnd(pathWidth)}  ${formatBytes(file.size).padStart(9)}  ${variants}`,
      )
    }
  }

  const skipped = Object.entries(report.skipped)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${n} ${reason.replace('-', ' ')}`)
  if (skipped.length > 0) lines.push(`  skipped: ${skipped.join(', ')}`)
  const housekeeping: string[] = []
  if (report.removed.staleVariants > 0) housekeeping.push(`${report.removed.staleVariants} stale variants removed`)
  if (report.removed.tempFiles > 0)
    housekeeping.push(`${report.removed.tempFiles} temp files of an interrupted run removed`)
  if (report.originalsRemoved.files > 0)
    housekeeping.push(
      `${report.originalsRemoved.files} originals removed (keepOriginals: false), ${formatBytes(report.originalsRemoved.bytes)} freed`,
    )
  if (housekeeping.length > 0) lines.push(`  ${housekeeping.join('; ')}`)
  if (report.budgets) lines.push(formatBudgetTable(report.budgets))
  return lines.join('\n')
}

function truncateMiddle(text: string, width: number): string {
  if (text.length <= width) return text
  const keep = width - 1
  return `${text.slice(0, Math.ceil(keep / 2))}…${text.slice(text.length - Math.floor(keep / 2))}`
}
