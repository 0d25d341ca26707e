import { promisify } from 'node:util'
import { type BrotliOptions, brotliCompress, brotliDecompress } from 'node:zlib'
import { type BrotliParams, brotli, brotliWindowBits, brotliZlibParams } from './brotli.js'
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

export type DcbParams = BrotliParams

/**
 * Dictionary-Compressed Brotli (RFC 9842 §4.1): brotli with the dictionary as a raw prefix. The
 * window is fitted to dictionary + file so every dictionary byte stays reachable, up to brotli's
 * 16 MiB (large-window brotli is not allowed).
 */
export const dcb = {
  encoding: 'dcb',
  extension: '.dcb',
  magic: Uint8Array.of(0xff, 0x44, 0x43, 0x42),
  levelOf: brotli.format,
  // brotli's parameters, the window fitted to dictionary + file.
  params: (file, level, dictionarySize) => ({
    ...brotli.params(file, level),
    lgwin: brotliWindowBits(dictionarySize + file.size),
  }),
  accepts: (dictionary) => dictionary.byteLength > 0,
  encode: (data, params, dictionary) => brotliAsync(data, { dictionary, params: brotliZlibParams(params) }),
  decode: (stream, dictionary) => unbrotliAsync(stream, { dictionary }),
} as const satisfies DictionaryCodec<DcbParams>
