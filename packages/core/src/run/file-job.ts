import { readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { decodeBuffer } from '../codecs/encode.js'
import { CODECS, FALLBACK_FORMAT, type Format } from '../codecs/table.js'
import { userError } from '../errors.js'
import { withOpenFiles } from '../fs/open-files.js'
import { variantModeOf, writeFileAtomically } from '../fs/write.js'
import { sha256Hex } from '../hash.js'
import { cacheClassOf } from '../http/cache-policy.js'
import { contentTypeOf } from '../http/media-types.js'
import type { ManifestFile, ManifestVariant } from '../manifest/manifest.js'
import type { SlotTicket } from '../pool/pool.js'
import type { SkipReason } from '../report/report.js'
import type { FileJobContext } from './context.js'
import { skipReason } from './eligibility.js'
import { encodeCost, encodeWithCache } from './encode-with-cache.js'
import { knownVariant } from './known-variant.js'
import { holdsStill, isGone, unreadable } from './late-file.js'
import { variantsToWrite } from './variant-order.js'
import { writeIfChanged } from './write-variant.js'

export type { FileJobContext }

/**
 * A file to process. `recoverFromGzip`: the previous run used `keepOriginals: false`, so only
 * `<path>.gz` is on disk; the original bytes are its decoded content, `expectedSize` long.
 */
export interface FileJob {
  path: string
  recoverFromGzip: boolean
  expectedSize?: number
}

/** A job after `statFileJob`: where its bytes come from, their mtime, and its memory weight. */
export interface StatedFileJob extends FileJob {
  sourcePath: string
  /** The source's stat when the run planned the job: a file that no longer matches it is late (`runFileJob`). */
  size: number
  mtimeMs: number
  ctimeMs: number
  /** The original's permission bits, its execute bits cleared: what its variants are written with. */
  mode: number
  /** Bytes the original holds in memory: the pool's byte budget and the scheduling order use it. */
  weight: number
}

export interface FileOutcome {
  entry: ManifestFile
  skipped?: SkipReason
  cacheHits: number
  cacheMisses: number
  written: number
  unchanged: number
  rejected: Format[]
  /** Milliseconds spent inside encoders for this file (cache misses only), summed and longest. */
  encodeMs: number
  longestEncodeMs: number
  /**
   * `keepOriginals: false` and the original is still on disk: the caller deletes it, but only
   * after the manifest saying `originalOnDisk: false` is written, so that a run killed in between
   * never leaves a `.gz` whose original nothing records.
   */
  removeOriginal: boolean
}

/**
 * Stats a job's source, failing with a message naming the file when it cannot be read; undefined
 * when it went away since the scan (a late file: another tool is still writing the folder).
 */
export async function statFileJob(root: string, job: FileJob): Promise<StatedFileJob | undefined> {
  const absolute = join(root, job.path)
  const sourcePath = job.recoverFromGzip ? `${absolute}${CODECS[FALLBACK_FORMAT].extension}` : absolute
  const info = await stat(sourcePath).catch((cause: unknown) => {
    if (isGone(cause)) return undefined
    throw unreadable(sourcePath, cause)
  })
  if (!info) return undefined
  if (!info.isFile()) throw userError('core', `Cannot read ${sourcePath}: not a regular file.`, { code: 'BAD_INPUT' })
  // A recovered original weighs what the manifest says it decodes to, not its .gz.
  const weight = job.recoverFromGzip ? Math.max(info.size, job.expectedSize ?? info.size * 8) : info.size
  return {
    ...job,
    sourcePath,
    size: info.size,
    mtimeMs: info.mtimeMs,
    ctimeMs: info.ctimeMs,
    mode: variantModeOf(info.mode),
    weight,
  }
}

/**
 * Compresses one file. Undefined for a late file: one that went away or changed while the run
 * read and encoded it (a tool still writing the folder, as Storybook copies its static folders
 * while Vite builds). It gets no variant and no manifest entry — never a build failure for a
 * file preencode did not write; whoever runs next (the plugin's look, `reconcileManifest`)
 * compresses it once it holds still.
 */
export async function runFileJob(ctx: FileJobContext, job: StatedFileJob): Promise<FileOutcome | undefined> {
  ctx.signal.throwIfAborted()
  return ctx.pool.withBytes(job.weight, () => processReserved(ctx, job))
}

/**
 * Reserves the file's encode slots in the pool's queue before reading it, costliest format
 * first: jobs start in size order, and a reservation keeps that order even though small files
 * are read and looked up sooner (see slot-queue.ts). Released whatever happens next.
 */
async function processReserved(ctx: FileJobContext, job: StatedFileJob): Promise<FileOutcome | undefined> {
  const tickets = new Map<Format, SlotTicket>()
  if (!skipReason(ctx.rule, job.path, job.weight)) {
    const byCost = [...ctx.options.formats].sort(
      (a, b) => encodeCost(b, ctx.options.levels[b], job.weight) - encodeCost(a, ctx.options.levels[a], job.weight),
    )
    for (const format of byCost)
      tickets.set(format, ctx.pool.reserve(encodeCost(format, ctx.options.levels[format], job.weight)))
  }
  try {
    return await processBytes(ctx, job, tickets)
  } finally {
    for (const ticket of tickets.values()) ticket.release()
  }
}

/** One file's bytes on their way through: read, encoded, written, recorded in `outcome`. */
interface FileWork {
  ctx: FileJobContext
  job: StatedFileJob
  /** The original's path (the job's `sourcePath` is its .gz when recovering). */
  absolute: string
  data: Buffer
  outcome: FileOutcome
}

async function processBytes(
  ctx: FileJobContext,
  job: StatedFileJob,
  tickets: ReadonlyMap<Format, SlotTicket>,
): Promise<FileOutcome | undefined> {
  const absolute = join(ctx.root, job.path)
  const data = await readOriginal(job, absolute)
  if (data === undefined) return undefined
  const work: FileWork = { ctx, job, absolute, data, outcome: newOutcome(ctx, job, data) }
  const skip = skipReason(ctx.rule, job.path, data.byteLength)
  if (skip) work.outcome.skipped = skip
  else if (!(await writeVariants(work, tickets))) return undefined
  return await settleOriginal(work)
}

/**
 * The original's bytes: read, or decoded from its .gz when `keepOriginals: false` removed it.
 * Undefined when the file went away or is not the size it was planned with (late).
 */
async function readOriginal(job: StatedFileJob, absolute: string): Promise<Buffer | undefined> {
  const { sourcePath } = job
  const raw = await withOpenFiles(1, () => readFile(sourcePath)).catch((cause: unknown) => {
    if (isGone(cause)) return undefined
    throw unreadable(sourcePath, cause)
  })
  if (raw === undefined || raw.byteLength !== job.size) return undefined
  if (!job.recoverFromGzip) return raw
  return await decodeBuffer(FALLBACK_FORMAT, raw).catch((cause: unknown) => {
    throw userError(
      'core',
      `${absolute} is missing and its gzip variant ${sourcePath} does not decode; restore the original and rerun.`,
      { cause, code: 'BAD_INPUT' },
    )
  })
}

function newOutcome(ctx: FileJobContext, job: StatedFileJob, data: Buffer): FileOutcome {
  const { options } = ctx
  const cacheClass = cacheClassOf(job.path, options.cachePolicy)
  return {
    entry: {
      path: job.path,
      size: data.byteLength,
      sha256: sha256Hex(data),
      mtimeMs: job.mtimeMs,
      contentType: contentTypeOf(job.path),
      cacheClass,
      cacheControl: options.cachePolicy.headers[cacheClass],
      originalOnDisk: true,
      variants: [],
    },
    cacheHits: 0,
    cacheMisses: 0,
    written: 0,
    unchanged: 0,
    rejected: [],
    encodeMs: 0,
    longestEncodeMs: 0,
    removeOriginal: false,
  }
}

/**
 * Encodes (or finds in the cache) every format, then writes the variants worth writing. False
 * for a late file, which changed while it was read and encoded (nothing written), or while its
 * variants were written (they are removed again): no variant ever encodes bytes its file no
 * longer holds.
 */
async function writeVariants(work: FileWork, tickets: ReadonlyMap<Format, SlotTicket>): Promise<boolean> {
  const { ctx, job, data, outcome } = work
  const { formats } = ctx.options
  const { size, sha256 } = outcome.entry
  const results = await Promise.all(
    formats.map((format) => encodeCached(ctx, outcome, format, data, sha256, job.path, tickets.get(format))),
  )
  const candidates = formats.map((format, index) => ({ format, bytes: results[index]!.bytes }))
  const onDisk = new Set(formats.filter((_, index) => results[index]!.onDisk))
  const kept = variantsToWrite(candidates.filter(({ bytes }) => isWorthWriting(ctx, bytes.byteLength, size)))
  for (const format of formats) if (!kept.some((v) => v.format === format)) outcome.rejected.push(format)
  if (!(await holdsStill(job))) return false
  for (const [index, { format, bytes }] of kept.entries()) {
    ctx.signal.throwIfAborted()
    const variantPath = `${job.path}${CODECS[format].extension}`
    // Servers build ETags from mtime + size (nginx: whole seconds): a variant as large as one
    // before it gets the original's mtime plus whole seconds, so every representation keeps its
    // own ETag (docs/servers/nginx.md, "Equal sizes").
    const ties = kept.slice(0, index).filter((v) => v.bytes.byteLength === bytes.byteLength).length
    const mtimeMs = job.mtimeMs + ties * 1000
    const changed = ctx.cacheOnly
      ? false
      : await writeIfChanged(ctx, variantPath, bytes, mtimeMs, job.mode, onDisk.has(format))
    if (changed) outcome.written++
    else outcome.unchanged++
    outcome.entry.variants.push({
      format,
      encoding: CODECS[format].encoding,
      path: variantPath,
      size: bytes.byteLength,
      sha256: sha256Hex(bytes),
    } satisfies ManifestVariant)
  }
  if (outcome.entry.variants.length === 0) outcome.skipped = 'no-saving'
  // A recovered original's source is its .gz, which was just rewritten.
  if (ctx.cacheOnly || job.recoverFromGzip || (await holdsStill(job))) return true
  await Promise.all(outcome.entry.variants.map((variant) => rm(join(ctx.root, variant.path), { force: true })))
  return false
}

/** `keepOriginals: false` with a gzip variant: the original goes; else a recovered one comes back. */
async function settleOriginal({ ctx, job, absolute, data, outcome }: FileWork): Promise<FileOutcome> {
  const hasGzip = outcome.entry.variants.some((v) => v.format === FALLBACK_FORMAT)
  if (ctx.cacheOnly) return outcome
  if (!ctx.options.keepOriginals && hasGzip) {
    outcome.entry.originalOnDisk = false
    outcome.removeOriginal = !job.recoverFromGzip
  } else if (job.recoverFromGzip) {
    // The original is needed on disk again (keepOriginals back to true, or no gzip variant now).
    await writeFileAtomically(absolute, data, job.mtimeMs)
  }
  return outcome
}

async function encodeCached(
  ctx: FileJobContext,
  outcome: FileOutcome,
  format: Format,
  data: Buffer,
  sha256: string,
  path: string,
  ticket: SlotTicket | undefined,
): Promise<{ bytes: Buffer; onDisk: boolean }> {
  const known = knownVariant(ctx, path, sha256, format)
  const { bytes, hit, encodeMs, onDisk } = await encodeWithCache(ctx, format, data, sha256, path, ticket, known)
  if (hit) outcome.cacheHits++
  else outcome.cacheMisses++
  outcome.encodeMs += encodeMs
  outcome.longestEncodeMs = Math.max(outcome.longestEncodeMs, encodeMs)
  return { bytes, onDisk }
}

/** Whether a variant of `size` bytes for an original of `originalSize` bytes is worth writing. */
export function isWorthWriting(ctx: FileJobContext, size: number, originalSize: number): boolean {
  // Never a variant that is not strictly smaller, whatever minSaving says.
  return size < originalSize && 1 - size / originalSize >= ctx.options.minSaving
}
