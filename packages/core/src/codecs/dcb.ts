import { promisify } from 'node:util'
import { brotliCompress, brotliDecompress, constants, type BrotliOptions } from 'node:zlib'
import { brotliModeOf, type BrotliMode } from './brotli.js'
import { fittedWindowLog } from './codec.js'
import type { DictionaryCodec } from './dictionary-codec.js'

/** Node 24.15 added `dictionary` to the brotli options; @types/node does not list it yet. */
type BrotliDictionaryOptions = BrotliOptions & { dictionary?: ArrayBufferView }
type BrotliCall = (
  buf: Uint8Array,
  options: BrotliOptions,
  callback: (error: Error | null, result: Buffer) => void,
) => void

const brotliAsync = promisify<Uint8Array, BrotliDictionaryOptions, Buffer>(brotliCompress as BrotliCall)
const unbrotliAsync = promisify<Uint8Array, BrotliDictionaryOptions, Buffer>(brotliDecompress as BrotliCall)

const MODES: Readonly<Record<BrotliMode, number>> = {
  text: constants.BROTLI_MODE_TEXT,
  font: constants.BROTLI_MODE_FONT,
  generic: constants.BROTLI_MODE_GENERIC,
}

export type DcbParams = {
  readonly quality: number
  readonly lgwin: number
  readonly mode: BrotliMode
  readonly sizeHint: number
}

/**
 * Dictionary-Compressed Brotli (RFC 9842 §4.1): brotli with the dictionary as a raw prefix. The
 * window is fitted to dictionary + file so every dictionary byte stays reachable, up to brotli's
 * 16 MiB (large-window brotli is not allowed).
 */
export const dcb = {
  encoding: 'dcb',
  extension: '.dcb',
  levelOf: 'brotli',
  magic: Uint8Array.of(0xff, 0x44, 0x43, 0x42),
  params: (file, level, dictionarySize) => ({
    quality: level,
    lgwin: fittedWindowLog(dictionarySize + file.size, 10, 24),
    mode: brotliModeOf(file.path),
    sizeHint: file.size,
  }),
  accepts: (dictionary) => dictionary.byteLength > 0,
  encode: (data, params, dictionary) =>
    brotliAsync(data, {
      dictionary,
      params: {
        [constants.BROTLI_PARAM_QUALITY]: params.quality,
        [constants.BROTLI_PARAM_LGWIN]: params.lgwin,
        [constants.BROTLI_PARAM_MODE]: MODES[params.mode],
        [constants.BROTLI_PARAM_SIZE_HINT]: params.sizeHint,
      },
    }),
  decode: (stream, dictionary) => unbrotliAsync(stream, { dictionary }),
} as const satisfies DictionaryCodec<DcbParams>
