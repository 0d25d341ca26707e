import { createHash } from 'node:crypto'
import { chmod, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { cacheKey, type CompressionCache } from './cache.js'
import { cacheClassOf } from './cache-policy.js'
import { decodeBuffer, encodeBuffer, encoderSettings } from './encoders.js'
import { PreencodeError, userError } from './errors.js'
import { ALL_FORMATS, FORMATS, type Format } from './formats.js'
import type { ManifestFile, ManifestVariant } from './manifest.js'
import { contentTypeOf, isCompressible } from './media-types.js'
import type { ResolvedCompressOptions } from './options.js'
import type { WorkPool } from './pool.js'
import type { SkipReason } from './report.js'
import { writeFileAtomically, writeVariantAtomically } from './write.js'

/** Everything one file's job reads; shared by all jobs of a run. */
export interface FileJobContext {
  /** Absolute root directory. */
  root: string
  options: ResolvedCompressOptions
  cache: CompressionCache
  pool: WorkPool
  /** Variant paths found on disk by the scan: rewritten only when their bytes differ. */
  existingVariants: ReadonlySet<string>
  included: ReadonlySet<string>
  excluded: ReadonlySet<string>
  signal: AbortSignal
}

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
  mtimeMs: number
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
  /**
   * `keepOriginals: false` and the original is still on disk: the caller deletes it, but only
   * after the manifest saying `originalOnDisk: false` is written, so that a run killed in between
   * never leaves a `.gz` whose original nothing records.
   */
  removeOriginal: boolean
}

/** Stats a job's source, failing with a message naming the file when it cannot be read. */
export async function statFileJob(root: string, job: FileJob): Promise<StatedFileJob> {
  const absolute = join(root, job.path)
  const sourcePath = job.recoverFromGzip ? `${absolute}${FORMATS.gzip.extension}` : absolute
  const info = await stat(sourcePath).catch((cause: unknown) => {
    throw unreadable(sourcePath, cause)
  })
  if (!info.isFile()) throw userError('core', `Cannot read ${sourcePath}: not a regular file.`, { code: 'BAD_INPUT' })
  // A recovered original weighs what the manifest says it decodes to, not its .gz.
  const weight = job.recoverFromGzip ? Math.max(info.size, job.expectedSize ?? info.size * 8) : info.size
  return { ...job, sourcePath, mtimeMs: info.mtimeMs, weight }
}

export async function runFileJob(ctx: FileJobContext, job: StatedFileJob): Promise<FileOutcome> {
  ctx.signal.throwIfAborted()
  return ctx.pool.withBytes(job.weight, () => processBytes(ctx, job, join(ctx.root, job.path), job.sourcePath, job.mtimeMs))
}

async function processBytes(ctx: FileJobContext, job: FileJob, absolute: string, sourcePath: string, mtimeMs: number): Promise<FileOutcome> {
  const { options } = ctx
  const raw = await readFile(sourcePath).catch((cause: unknown) => {
    throw unreadable(sourcePath, cause)
  })
  const data = job.recoverFromGzip
    ? await decodeBuffer('gzip', raw).catch((cause: unknown) => {
        throw userError('core', `${absolute} is missing and its gzip variant ${sourcePath} does not decode; restore the original and rerun.`, { cause, code: 'BAD_INPUT' })
      })
    : raw
  const size = data.byteLength
  const sha256 = sha256Hex(data)
  const outcome: FileOutcome = {
    entry: {
      path: job.path,
      size,
      sha256,
      mtimeMs,
      contentType: contentTypeOf(job.path),
      cacheClass: cacheClassOf(job.path, options.cachePolicy),
      cacheControl: '',
      originalOnDisk: true,
      variants: [],
    },
    cacheHits: 0,
    cacheMisses: 0,
    written: 0,
    unchanged: 0,
    rejected: [],
    removeOriginal: false,
  }
  outcome.entry.cacheControl = options.cachePolicy.headers[outcome.entry.cacheClass]

  const skip = skipReason(ctx, job.path, size)
  if (skip) {
    outcome.skipped = skip
  } else {
    const results = await Promise.all(options.formats.map((format) => encodeCached(ctx, outcome, format, data, sha256, job.path)))
    const { kept, zstdFirst } = variantsToWrite(options.formats.map((format, index) => ({ format, bytes: results[index]! })), size, options.minSaving)
    for (const format of options.formats) if (!kept.some((v) => v.format === format)) outcome.rejected.push(format)
    for (const [index, { format, bytes }] of kept.entries()) {
      ctx.signal.throwIfAborted()
      const variantPath = `${job.path}${FORMATS[format].extension}`
      // Servers build ETags from mtime + size (nginx: whole seconds): a variant as large as one
      // before it gets the original's mtime plus whole seconds, so every representation keeps its
      // own ETag (docs/servers/nginx.md, "Equal sizes").
      const ties = kept.slice(0, index).filter((v) => v.bytes.byteLength === bytes.byteLength).length
      const changed = await writeIfChanged(ctx, variantPath, bytes, mtimeMs + ties * 1000, format === 'zstd' && zstdFirst)
      if (changed) outcome.written++
      else outcome.unchanged++
      outcome.entry.variants.push({ format, encoding: FORMATS[format].encoding, path: variantPath, size: bytes.byteLength, sha256: sha256Hex(bytes) } satisfies ManifestVariant)
    }
    if (outcome.entry.variants.length === 0) outcome.skipped = 'no-saving'
  }

  const hasGzip = outcome.entry.variants.some((v) => v.format === 'gzip')
  if (!options.keepOriginals && hasGzip) {
    outcome.entry.originalOnDisk = false
    outcome.removeOriginal = !job.recoverFromGzip
  } else if (job.recoverFromGzip) {
    // The original is needed on disk again (keepOriginals back to true, or no gzip variant now).
    await writeFileAtomically(absolute, data, mtimeMs)
  }
  return outcome
}

/**
 * The variants worth writing, smallest first (ties in the servers' order of preference,
 * `ALL_FORMATS`: br, zstd, gzip), and whether zstd goes before br for this file.
 *
 * Every generated config tries the acceptable codings in that fixed order and serves the first
 * that exists, without knowing sizes. So a variant larger than the gzip one is not written (it
 * would go to clients that take both, and every client that takes br or zstd takes gzip), and
 * when zstd is smaller than br both stay (Safari takes br but not zstd) and the zstd variant is
 * marked executable (`u+x`): the configs test that bit (`-x`) to put zstd first for clients
 * that take both. Each must also be strictly smaller than the original and save `minSaving`.
 */
export function variantsToWrite<T extends { format: Format; bytes: Uint8Array }>(
  candidates: readonly T[], size: number, minSaving: number,
): { kept: T[]; zstdFirst: boolean } {
  const saving = candidates.filter(({ bytes }) => bytes.byteLength < size && 1 - bytes.byteLength / size >= minSaving)
  const gzip = saving.find((c) => c.format === 'gzip')
  const kept = saving
    .filter((c) => c.format === 'gzip' || gzip === undefined || c.bytes.byteLength <= gzip.bytes.byteLength)
    .sort((a, b) => a.bytes.byteLength - b.bytes.byteLength || ALL_FORMATS.indexOf(a.format) - ALL_FORMATS.indexOf(b.format))
  const br = kept.find((c) => c.format === 'brotli')
  const zstd = kept.find((c) => c.format === 'zstd')
  return { kept, zstdFirst: br !== undefined && zstd !== undefined && zstd.bytes.byteLength < br.bytes.byteLength }
}

function skipReason(ctx: FileJobContext, path: string, size: number): SkipReason | undefined {
  if (ctx.excluded.has(path)) return 'excluded'
  if (!ctx.included.has(path) && !isCompressible(path)) return 'incompressible'
  if (size < ctx.options.threshold || size === 0) return 'below-threshold'
  return undefined
}

/** Cache first; on a miss, encode in a pool slot and store the result (even if not smaller: the next run then skips the work too). */
async function encodeCached(ctx: FileJobContext, outcome: FileOutcome, format: Format, data: Buffer, sha256: string, path: string): Promise<Buffer> {
  const level = ctx.options.levels[format]
  const settings = encoderSettings(format, data, level, { path })
  const key = cacheKey({ contentSha256: sha256, format, settings })
  const cached = await ctx.cache.get(key)
  if (cached) {
    outcome.cacheHits++
    return cached
  }
  outcome.cacheMisses++
  const encoded = await ctx.pool.run(() => {
    ctx.signal.throwIfAborted()
    return encodeBuffer(format, data, level, { path })
  }).catch((cause: unknown) => {
    if (ctx.signal.aborted) throw cause
    throw new PreencodeError('core', 'INTERNAL', `${format} failed on ${join(ctx.root, path)}`, { cause })
  })
  await ctx.cache.set(key, encoded)
  return encoded
}

/**
 * Leaves an identical variant (same bytes, same mtime) alone: a warm rebuild then writes
 * nothing. `executable`: the `u+x` mark of a zstd variant smaller than its br sibling
 * (`variantsToWrite`), set or cleared whether or not the bytes changed.
 */
async function writeIfChanged(ctx: FileJobContext, variantPath: string, bytes: Buffer, mtimeMs: number, executable: boolean): Promise<boolean> {
  const absolute = join(ctx.root, variantPath)
  let changed = true
  if (ctx.existingVariants.has(variantPath)) {
    const current = await stat(absolute).catch(() => undefined)
    if (current?.isFile() && current.size === bytes.byteLength && Math.abs(current.mtimeMs - mtimeMs) < 1) {
      const onDisk = await readFile(absolute).catch(() => undefined)
      if (onDisk?.equals(bytes)) changed = false
    }
  }
  if (changed) await writeVariantAtomically(absolute, bytes, mtimeMs)
  const { mode } = await stat(absolute)
  if (((mode & 0o100) !== 0) !== executable) await chmod(absolute, executable ? mode | 0o100 : mode & ~0o111)
  return changed
}

function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

function unreadable(path: string, cause: unknown): PreencodeError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOENT' ? 'it disappeared during the run' : (code ?? String(cause))
  return userError('core', `Cannot read ${path}: ${why}.`, { cause, code: 'BAD_INPUT' })
}
