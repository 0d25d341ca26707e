import { promisify } from 'node:util'
import {
  brotliCompress,
  brotliDecompress,
  constants,
  gunzip,
  gzip,
  zstdCompress,
  zstdDecompress,
  type BrotliOptions,
  type ZlibOptions,
  type ZstdOptions,
} from 'node:zlib'
import { PreencodeError } from './errors.js'
import { FORMATS, ZSTD_MAX_WINDOW_LOG, formatOfEncoding, isFormat, type Format } from './formats.js'
import { mediaTypeOf } from './media-types.js'

/**
 * The node:zlib async functions run on libuv's threadpool, so several encodes in flight use
 * several cores; the sync variants would serialise everything on the main thread.
 */
const gzipAsync = promisify<Buffer | Uint8Array, ZlibOptions, Buffer>(gzip)
const gunzipAsync = promisify<Buffer | Uint8Array, Buffer>(gunzip)
const brotliAsync = promisify<Buffer | Uint8Array, BrotliOptions, Buffer>(brotliCompress)
const unbrotliAsync = promisify<Buffer | Uint8Array, Buffer>(brotliDecompress)
const zstdAsync = promisify<Buffer | Uint8Array, ZstdOptions, Buffer>(zstdCompress)
const unzstdAsync = promisify<Buffer | Uint8Array, ZstdOptions, Buffer>(zstdDecompress)

/** Brotli's context model: text (UTF-8 heavy), font (WOFF 2.0 style), or generic binary. */
export type BrotliMode = 'text' | 'font' | 'generic'

export interface EncodeHints {
  /**
   * The original's path; picks brotli's mode from its media type.
   * @default undefined (generic mode)
   */
  path?: string
}

/** zstd's smallest window (ZSTD_WINDOWLOG_ABSOLUTEMIN). */
const ZSTD_MIN_WINDOW_LOG = 10
/** Brotli's window range (BROTLI_MIN_WINDOW_BITS .. BROTLI_MAX_WINDOW_BITS, RFC 7932). */
const BROTLI_MIN_WINDOW_BITS = 10
const BROTLI_MAX_WINDOW_BITS = 24

/**
 * A string naming every library whose output a cached entry depends on. A Node upgrade that
 * ships a new zlib, brotli or zstd invalidates the cache, since their bytes may differ.
 */
export const ENGINE_VERSION = `preencode-engine/1 zlib/${process.versions.zlib ?? '?'} brotli/${process.versions.brotli ?? '?'} zstd/${process.versions.zstd ?? '?'}`

/** The smallest log2 window that holds the whole input, clamped to [min, max]. */
function fittedWindowLog(size: number, min: number, max: number): number {
  let log = min
  while (log < max && 2 ** log < size) log++
  return log
}

/**
 * zstd's window: fitted to the file (less memory, same ratio) and never above 2^23, because
 * browsers refuse frames with a window above 8 MiB (RFC 9659 §3). Levels 20-22 default to
 * 2^25-2^27, so the cap must be explicit at every level.
 */
export function zstdWindowLog(size: number): number {
  return fittedWindowLog(size, ZSTD_MIN_WINDOW_LOG, ZSTD_MAX_WINDOW_LOG)
}

/** Brotli's window: fitted to the file, up to the format's 16 MiB. */
export function brotliWindowBits(size: number): number {
  return fittedWindowLog(size, BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS)
}

/** Fonts get brotli's font model, text types the text model, the rest generic. */
export function brotliModeOf(path: string | undefined): BrotliMode {
  if (path === undefined) return 'generic'
  const type = mediaTypeOf(path)
  if (type.startsWith('font/') || type === 'application/vnd.ms-fontobject') return 'font'
  if (type.startsWith('text/') || type.endsWith('json') || type.endsWith('xml') || type.includes('javascript')) return 'text'
  return 'generic'
}

const BROTLI_MODES: Readonly<Record<BrotliMode, number>> = {
  text: constants.BROTLI_MODE_TEXT,
  font: constants.BROTLI_MODE_FONT,
  generic: constants.BROTLI_MODE_GENERIC,
}

/**
 * Every setting that shapes the encoder's output besides the level, as a stable string: part
 * of the cache key, so a change of policy here never serves bytes made under the old one.
 */
export function encoderSettings(format: Format, data: { byteLength: number }, level: number, hints: EncodeHints = {}): string {
  switch (format) {
    case 'gzip':
      return `gzip:l${level}:w15:m8|m9-smaller`
    case 'brotli':
      return `brotli:q${level}:w${brotliWindowBits(data.byteLength)}:${brotliModeOf(hints.path)}:hint`
    case 'zstd':
      return `zstd:l${level}:w${zstdWindowLog(data.byteLength)}:pledged:nocsize`
  }
}

/** Compresses a buffer in one format and level; the result is a complete, standalone stream. */
export async function encodeBuffer(format: Format, data: Uint8Array, level: number, hints: EncodeHints = {}): Promise<Buffer> {
  const [min, max] = FORMATS[format].levels
  if (!Number.isInteger(level) || level < min || level > max) {
    throw new PreencodeError('core', 'INTERNAL', `encodeBuffer: ${format} level ${level} is outside ${min}-${max}`)
  }
  switch (format) {
    case 'gzip': {
      // Neither memLevel wins everywhere: over the bench app's 94 bundle files memLevel 9 was
      // 0.14% larger in total than the default 8, on others it is smaller. gzip 9 costs a
      // fraction of brotli 11, so both run and the smaller stream is kept. One after the other:
      // the pool gave this encode one slot, and two threads would oversubscribe the cores.
      const m8 = await gzipAsync(data, { level, memLevel: 8, windowBits: 15 })
      const m9 = await gzipAsync(data, { level, memLevel: 9, windowBits: 15 })
      return m9.byteLength < m8.byteLength ? m9 : m8
    }
    case 'brotli':
      return brotliAsync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: level,
          [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(data.byteLength),
          [constants.BROTLI_PARAM_MODE]: BROTLI_MODES[brotliModeOf(hints.path)],
          // The size hint lets brotli size its tables to the input instead of the worst case.
          [constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength,
        },
      })
    case 'zstd':
      return zstdAsync(data, {
        params: {
          [constants.ZSTD_c_compressionLevel]: level,
          [constants.ZSTD_c_windowLog]: zstdWindowLog(data.byteLength),
          // The pledged size would otherwise be written into the frame header: 1-8 bytes per
          // file that no browser needs (they decode streaming, the window caps the memory).
          [constants.ZSTD_c_contentSizeFlag]: 0,
        },
        // Node exposes ZSTD_c_pledgedSrcSize as this option (there is no constant for it): with
        // the size known, zstd picks its small-input tables. Measured: 8.8 s -> 1.7 s over 88
        // bundle files at level 19.
        pledgedSrcSize: data.byteLength,
      })
  }
}

/**
 * Decodes a variant: `encoding` is a Content-Encoding token (`gzip`, `x-gzip`, `br`, `zstd`) or
 * a format name. The zstd decoder refuses windows above 8 MiB, like a browser would.
 */
export async function decodeBuffer(encoding: string, data: Uint8Array): Promise<Buffer> {
  const normalized = encoding.trim().toLowerCase()
  const format: Format | undefined =
    normalized === 'x-gzip' ? 'gzip' : isFormat(normalized) ? normalized : formatOfEncoding(normalized)?.format
  switch (format) {
    case 'gzip':
      return gunzipAsync(data)
    case 'brotli':
      return unbrotliAsync(data)
    case 'zstd':
      return unzstdAsync(data, { params: { [constants.ZSTD_d_windowLogMax]: ZSTD_MAX_WINDOW_LOG } })
    default:
      throw new PreencodeError('core', 'INTERNAL', `decodeBuffer: unknown encoding \`${encoding}\`; expected gzip, x-gzip, br or zstd`)
  }
}
