import { promisify } from 'node:util'
import { brotliCompress, brotliDecompress, constants, type BrotliOptions } from 'node:zlib'
import { mediaTypeOf } from '../http/media-types.js'
import { fittedWindowLog, type Codec } from './codec.js'

const brotliAsync = promisify<Uint8Array, BrotliOptions, Buffer>(brotliCompress)
const unbrotliAsync = promisify<Uint8Array, Buffer>(brotliDecompress)

/** Brotli's context model: text (UTF-8 heavy), font (WOFF 2.0 style), or generic binary. */
export type BrotliMode = 'text' | 'font' | 'generic'

export type BrotliParams = {
  readonly quality: number
  readonly lgwin: number
  readonly mode: BrotliMode
  /** The size hint lets brotli size its tables to the input instead of the worst case. */
  readonly sizeHint: number
}

/** Brotli's window range (BROTLI_MIN_WINDOW_BITS .. BROTLI_MAX_WINDOW_BITS, RFC 7932). */
const BROTLI_MIN_WINDOW_BITS = 10
const BROTLI_MAX_WINDOW_BITS = 24

const BROTLI_MODES: Readonly<Record<BrotliMode, number>> = {
  text: constants.BROTLI_MODE_TEXT,
  font: constants.BROTLI_MODE_FONT,
  generic: constants.BROTLI_MODE_GENERIC,
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
