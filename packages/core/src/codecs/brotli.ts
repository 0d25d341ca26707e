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
  /** Every window tried (log2 bytes); the smallest stream wins (`brotliWindows`). */
  readonly lgwins: readonly number[]
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
 * The window of brotli's own default (BROTLI_DEFAULT_WINDOW), which other tools and
 * `brotli(1)` use: 4 MiB.
 */
export const BROTLI_DEFAULT_WINDOW_BITS = 22

/** Brotli's window: fitted to the file, from 64 KiB (see above) up to the format's 16 MiB. */
export function brotliWindowBits(size: number): number {
  return fittedWindowLog(size, BROTLI_MIN_FITTED_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS)
}

/**
 * The windows tried for a file: the fitted one, and for a file above 4 MiB brotli's default
 * too. A window that reaches every byte is not always the smaller stream: on bench/app's
 * 6.9 MB Monaco worker window 23 is 167 B smaller than 22, on a 6.2 MB app chunk it was 736 B
 * larger (issue 28). Smaller files fit in window 22 or less, where the fitted window gives the
 * same stream as 22; above it, both run and the smaller is kept, so no file is larger than
 * what a tool at brotli's default window writes. It doubles the encode for those few large
 * files, once per content (the cache keeps the winner). Measured over bench/app's 95 files,
 * per file against vite-plugin-compression2's brotli 11 (window 22, generic mode, no size
 * hint): none larger.
 */
export function brotliWindows(size: number): readonly number[] {
  const fitted = brotliWindowBits(size)
  return fitted > BROTLI_DEFAULT_WINDOW_BITS ? [fitted, BROTLI_DEFAULT_WINDOW_BITS] : [fitted]
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

/** node:zlib's parameters for `params` at one of its windows; dcb (brotli with a dictionary) uses them too. */
export function brotliZlibParams(params: BrotliParams, lgwin: number): Record<number, number> {
  return {
    [constants.BROTLI_PARAM_QUALITY]: params.quality,
    [constants.BROTLI_PARAM_LGWIN]: lgwin,
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
    lgwins: brotliWindows(file.size),
    mode: brotliModeOf(file.path),
    sizeHint: file.size,
  }),
  async encode(data, params) {
    // One after the other, as gzip's memLevels: the pool gave this encode one slot.
    let best: Buffer | undefined
    for (const lgwin of params.lgwins) {
      const stream = await brotliAsync(data, { params: brotliZlibParams(params, lgwin) })
      if (best === undefined || stream.byteLength < best.byteLength) best = stream
    }
    if (best === undefined) throw new Error('brotli params list no window')
    return best
  },
  decode: (data) => unbrotliAsync(data),
} as const satisfies Codec<BrotliParams>
