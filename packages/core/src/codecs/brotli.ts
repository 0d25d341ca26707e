import { promisify } from 'node:util'
import { type BrotliOptions, brotliCompress, brotliDecompress, constants } from 'node:zlib'
import { mediaTypeOf } from '../http/media-types.js'
import { type Codec, fittedWindowLog } from './codec.js'

const brotliAsync = promisify<Uint8Array, BrotliOptions, Buffer>(brotliCompress)
const unbrotliAsync = promisify<Uint8Array, Buffer>(brotliDecompress)

/** Brotli's context model: text (UTF-8 heavy), font (WOFF 2.0 style), or generic binary. */
export type BrotliMode = 'text' | 'font' | 'generic'

export type BrotliParams = {
  readonly quality: number
  /** The window, log2 bytes (`brotliWindowBits`). */
  readonly lgwin: number
  readonly mode: BrotliMode
  /** The size hint lets brotli size its tables to the input instead of the worst case. */
  readonly sizeHint: number
}

/**
 * The smallest window preencode writes. RFC 7932 §9.2 spends 1 bit on window 16 in the stream
 * header, 4 on 17-24 and 7 on 10-15: fitting the window of a 2 KB file to 2^11 makes it a byte
 * larger than window 16 (or brotli's default 22) on 28 of bench/app's small Monaco chunks, and
 * the compressed data is otherwise the same. A 64 KiB window costs a decoder nothing it notices.
 */
const BROTLI_MIN_FITTED_WINDOW_BITS = 16
/** The format's largest window (BROTLI_MAX_WINDOW_BITS; large-window brotli is not for HTTP). */
const BROTLI_MAX_WINDOW_BITS = 24

const BROTLI_MODES: Readonly<Record<BrotliMode, number>> = {
  text: constants.BROTLI_MODE_TEXT,
  font: constants.BROTLI_MODE_FONT,
  generic: constants.BROTLI_MODE_GENERIC,
}

/**
 * Brotli's window: fitted to the file, from 64 KiB (see above) up to the format's 16 MiB; one
 * encode per file. Below 4 MiB every window that holds the file gives the same compressed data.
 * Above it the fitted window (23 or 24) and brotli's default 22 (what `brotli(1)` and
 * vite-plugin-compression2 use) each win on some files, by bytes: the fitted window was 167 B
 * smaller on bench/app's 6.9 MB Monaco worker and 1,156 B smaller on a 5.8 MB chunk (the bench's
 * big-chunk app), 736 B larger on a 6.2 MB chunk of another app (issue 28), at most 0.06% of the
 * file's brotli either way. Trying both doubled the longest encode of such a site, which is its
 * whole cold build on 2 cores (issue 37), so the rule picks one: the window that reaches every
 * byte. Window 24 gives the same bytes as 23 on those files.
 */
export function brotliWindowBits(size: number): number {
  return fittedWindowLog(size, BROTLI_MIN_FITTED_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS)
}

/** Fonts get brotli's font model, text types the text model, the rest generic. */
export function brotliModeOf(path: string | undefined): BrotliMode {
  if (path === undefined) return 'generic'
  const type = mediaTypeOf(path)
  if (type.startsWith('font/') || type === 'application/vnd.ms-fontobject') return 'font'
  if (type.startsWith('text/') || type.endsWith('json') || type.endsWith('xml') || type.includes('javascript'))
    return 'text'
  return 'generic'
}

/** node:zlib's parameters for `params`; dcb (brotli with a dictionary) uses them too. */
export function brotliZlibParams(params: BrotliParams): Record<number, number> {
  return {
    [constants.BROTLI_PARAM_QUALITY]: params.quality,
    [constants.BROTLI_PARAM_LGWIN]: params.lgwin,
    [constants.BROTLI_PARAM_MODE]: BROTLI_MODES[params.mode],
    [constants.BROTLI_PARAM_SIZE_HINT]: params.sizeHint,
  }
}

/** Brotli (RFC 7932), HTTP token `br`. */
export const brotli = {
  format: 'brotli',
  encoding: 'br',
  aliases: [],
  extension: '.br',
  levels: [0, 11],
  defaultLevel: 11,
  // Measured in CPU time over the bench app (16 MB, 94 files): ~0.8 MB/s at 10-11, ~10 MB/s below.
  cost: (level) => (level >= 10 ? 1_250_000 : 100_000),
  params: (file, level) => ({
    quality: level,
    lgwin: brotliWindowBits(file.size),
    mode: brotliModeOf(file.path),
    sizeHint: file.size,
  }),
  encode: (data, params) => brotliAsync(data, { params: brotliZlibParams(params) }),
  decode: (data) => unbrotliAsync(data),
} as const satisfies Codec<BrotliParams>
