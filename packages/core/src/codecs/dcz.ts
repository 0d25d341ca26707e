import { promisify } from 'node:util'
import { constants, type ZstdOptions, zstdCompress, zstdDecompress } from 'node:zlib'
import { fittedWindowLog } from './codec.js'
import type { DictionaryCodec } from './dictionary-codec.js'
import { zstd } from './zstd.js'

const zstdAsync = promisify<Uint8Array, ZstdOptions, Buffer>(zstdCompress)
const unzstdAsync = promisify<Uint8Array, ZstdOptions, Buffer>(zstdDecompress)

const MIB = 1024 * 1024
/** RFC 9842 §4.2 caps the dcz window at 128 MiB. */
const DCZ_MAX_WINDOW_LOG = 27
/** zstd's magic for a trained dictionary: such bytes would be parsed, not used as raw content. */
const ZSTD_TRAINED_DICTIONARY_MAGIC = 0xec30a437

/** The largest window a browser accepts for a dcz body with this dictionary: max(8 MiB, 1.25 x dictionary), at most 128 MiB. */
export function dczWindowLimit(dictionarySize: number): number {
  return Math.min(Math.max(8 * MIB, Math.floor(dictionarySize * 1.25)), 128 * MIB)
}

function maxWindowLog(dictionarySize: number): number {
  return Math.min(Math.floor(Math.log2(dczWindowLimit(dictionarySize))), DCZ_MAX_WINDOW_LOG)
}

export type DczParams = { readonly level: number; readonly windowLog: number; readonly pledgedSrcSize: number }

/**
 * Dictionary-Compressed Zstandard (RFC 9842 §4.2): zstd with the raw dictionary. The window is
 * fitted to dictionary + file within the browser's limit; the content size is not written.
 */
export const dcz = {
  encoding: 'dcz',
  extension: '.dcz',
  levelOf: zstd.format,
  // A skippable frame: magic 0x184D2A5E and frame size 32, little-endian.
  magic: Uint8Array.of(0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00),
  params: (file, level, dictionarySize) => ({
    level,
    windowLog: fittedWindowLog(dictionarySize + file.size, 10, maxWindowLog(dictionarySize)),
    pledgedSrcSize: file.size,
  }),
  accepts: (dictionary) =>
    dictionary.byteLength > 0 &&
    (dictionary.byteLength < 4 ||
      Buffer.from(dictionary.buffer, dictionary.byteOffset, 4).readUInt32LE(0) !== ZSTD_TRAINED_DICTIONARY_MAGIC),
  encode: (data, params, dictionary) =>
    zstdAsync(data, {
      dictionary,
      params: {
        [constants.ZSTD_c_compressionLevel]: params.level,
        [constants.ZSTD_c_windowLog]: params.windowLog,
        [constants.ZSTD_c_contentSizeFlag]: 0,
      },
      pledgedSrcSize: params.pledgedSrcSize,
    }),
  decode: (stream, dictionary) =>
    unzstdAsync(stream, {
      dictionary,
      params: { [constants.ZSTD_d_windowLogMax]: maxWindowLog(dictionary.byteLength) },
    }),
} as const satisfies DictionaryCodec<DczParams>
