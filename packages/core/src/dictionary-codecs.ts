/**
 * The two dictionary-compressed content codings of RFC 9842 §4:
 * - `dcb`: `FF 44 43 42` + the dictionary's SHA-256 + a brotli stream compressed with the
 *   dictionary as a raw prefix (window at most 16 MiB);
 * - `dcz`: a zstd skippable frame (`5E 2A 4D 18`, size `20 00 00 00`) holding the SHA-256 + a
 *   zstd frame compressed with the raw dictionary (window at most max(8 MiB, 1.25 × dictionary),
 *   never above 128 MiB).
 * Node >= 24.15 takes a raw `dictionary` for brotli and zstd alike (zstd treats a dictionary that
 * starts with its own dictionary magic as a trained one, so such a dictionary is refused here).
 */
import { promisify } from 'node:util'
import { brotliCompress, brotliDecompress, constants, zstdCompress, zstdDecompress, type BrotliOptions, type ZstdOptions } from 'node:zlib'
import { sha256Of } from './available-dictionary.js'
import { brotliModeOf } from './codecs/brotli.js'
import type { EncodeHints } from './encoders.js'
import { PreencodeError, userError } from './errors.js'

/** Brotli with a dictionary came in Node 24.15 (zstd's in 22.19). */
export const DICTIONARY_MIN_NODE = '24.15.0'

/** Whether this Node can write dcb and dcz. */
export function supportsDictionaryCompression(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  return major > 24 || (major === 24 && minor >= 15)
}

/** Fails with a message saying which Node is needed, naming the option that asked for it. */
export function assertDictionarySupport(option: string): void {
  if (!supportsDictionaryCompression()) {
    throw userError('core', `\`${option}\` needs Node >= ${DICTIONARY_MIN_NODE} (brotli and zstd with a dictionary); this is Node ${process.versions.node}. Upgrade Node or set \`${option}: false\`.`, { code: 'BAD_INPUT' })
  }
}

/** Node 24.15 added `dictionary` to the brotli options; @types/node does not list it yet. */
type BrotliDictionaryOptions = BrotliOptions & { dictionary?: ArrayBufferView }

const brotliAsync = promisify<Uint8Array, BrotliDictionaryOptions, Buffer>(brotliCompress as (buf: Uint8Array, options: BrotliOptions, callback: (error: Error | null, result: Buffer) => void) => void)
const unbrotliAsync = promisify<Uint8Array, BrotliDictionaryOptions, Buffer>(brotliDecompress as (buf: Uint8Array, options: BrotliOptions, callback: (error: Error | null, result: Buffer) => void) => void)
const zstdAsync = promisify<Uint8Array, ZstdOptions, Buffer>(zstdCompress)
const unzstdAsync = promisify<Uint8Array, ZstdOptions, Buffer>(zstdDecompress)

/** A dictionary-compressed content coding, as written in Content-Encoding. */
export type DictionaryEncoding = 'dcb' | 'dcz'

export const DICTIONARY_ENCODINGS: readonly DictionaryEncoding[] = Object.freeze(['dcb', 'dcz'])

/** RFC 9842 §4.1: the dcb stream header starts with these 4 bytes, then the 32-byte hash. */
export const DCB_MAGIC: Readonly<Uint8Array> = Uint8Array.of(0xff, 0x44, 0x43, 0x42)
/** RFC 9842 §4.2: zstd skippable frame magic 0x184D2A5E and frame size 32, little-endian. */
export const DCZ_MAGIC: Readonly<Uint8Array> = Uint8Array.of(0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00)

export const DICTIONARY_HEADER_LENGTH: Readonly<Record<DictionaryEncoding, number>> = { dcb: 36, dcz: 40 }

const MIB = 1024 * 1024
const BROTLI_MAX_WINDOW_BITS = 24
const ZSTD_MIN_WINDOW_LOG = 10
/** RFC 9842 §4.2 caps the dcz window at 128 MiB. */
const DCZ_MAX_WINDOW_LOG = 27
/** zstd's magic for a trained (non-raw) dictionary; such bytes would be parsed, not used raw. */
const ZSTD_TRAINED_DICTIONARY_MAGIC = 0xec30a437

export function isDictionaryEncoding(value: unknown): value is DictionaryEncoding {
  return value === 'dcb' || value === 'dcz'
}

/** The header that starts every response body of this coding, for a dictionary of this hash. */
export function dictionaryStreamHeader(encoding: DictionaryEncoding, dictionarySha256: Uint8Array): Buffer {
  if (dictionarySha256.byteLength !== 32) throw new TypeError('dictionaryStreamHeader: the hash must be 32 bytes')
  return Buffer.concat([encoding === 'dcb' ? DCB_MAGIC : DCZ_MAGIC, dictionarySha256])
}

/** The largest zstd window a browser accepts for a dcz stream with this dictionary (RFC 9842 §4.2). */
export function dczWindowLimit(dictionarySize: number): number {
  return Math.min(Math.max(8 * MIB, Math.floor(dictionarySize * 1.25)), 128 * MIB)
}

function fittedLog(size: number, min: number, max: number): number {
  let log = min
  while (log < max && 2 ** log < size) log++
  return log
}

/** dcz window: fitted to dictionary + data (so every dictionary byte stays reachable) within the browser's limit. */
export function dczWindowLog(dictionarySize: number, dataSize: number): number {
  const limit = Math.min(Math.floor(Math.log2(dczWindowLimit(dictionarySize))), DCZ_MAX_WINDOW_LOG)
  return fittedLog(dictionarySize + dataSize, ZSTD_MIN_WINDOW_LOG, limit)
}

/** dcb window: fitted to dictionary + data, at most brotli's 16 MiB (no large-window brotli). */
export function dcbWindowBits(dictionarySize: number, dataSize: number): number {
  return fittedLog(dictionarySize + dataSize, 10, BROTLI_MAX_WINDOW_BITS)
}

/** Whether zstd would read these bytes as a trained dictionary instead of raw content. */
export function isUsableAsRawZstdDictionary(dictionary: Uint8Array): boolean {
  if (dictionary.byteLength < 4) return dictionary.byteLength > 0
  return Buffer.from(dictionary.buffer, dictionary.byteOffset, 4).readUInt32LE(0) !== ZSTD_TRAINED_DICTIONARY_MAGIC
}

export interface DictionaryEncodeOptions extends EncodeHints {
  /**
   * brotli quality (0-11) for dcb, zstd level (1-22) for dcz.
   * @default 11 for dcb, 19 for dcz
   */
  level?: number
}

/** Every setting that shapes a delta's bytes besides the inputs: part of its cache key. */
export function dictionaryEncoderSettings(encoding: DictionaryEncoding, dictionarySize: number, dataSize: number, options: DictionaryEncodeOptions = {}): string {
  return encoding === 'dcb'
    ? `dcb:q${options.level ?? 11}:w${dcbWindowBits(dictionarySize, dataSize)}:${brotliModeOf(options.path)}:hint`
    : `dcz:l${options.level ?? 19}:w${dczWindowLog(dictionarySize, dataSize)}:pledged:nocsize`
}

/** Compresses `data` against `dictionary`; the result is a complete body of that coding, header included. */
export async function encodeWithDictionary(encoding: DictionaryEncoding, data: Uint8Array, dictionary: Uint8Array, options: DictionaryEncodeOptions = {}): Promise<Buffer> {
  if (dictionary.byteLength === 0) throw new PreencodeError('core', 'INTERNAL', `encodeWithDictionary: empty dictionary`)
  const header = dictionaryStreamHeader(encoding, sha256Of(dictionary))
  if (encoding === 'dcb') {
    const body = await brotliAsync(data, {
      dictionary,
      params: {
        [constants.BROTLI_PARAM_QUALITY]: options.level ?? 11,
        [constants.BROTLI_PARAM_LGWIN]: dcbWindowBits(dictionary.byteLength, data.byteLength),
        [constants.BROTLI_PARAM_MODE]: brotliModeOf(options.path) === 'text' ? constants.BROTLI_MODE_TEXT : brotliModeOf(options.path) === 'font' ? constants.BROTLI_MODE_FONT : constants.BROTLI_MODE_GENERIC,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength,
      },
    })
    return Buffer.concat([header, body])
  }
  if (!isUsableAsRawZstdDictionary(dictionary)) {
    throw new PreencodeError('core', 'INTERNAL', 'encodeWithDictionary: a dictionary starting with zstd\'s trained-dictionary magic cannot be used raw for dcz')
  }
  const body = await zstdAsync(data, {
    dictionary,
    params: {
      [constants.ZSTD_c_compressionLevel]: options.level ?? 19,
      [constants.ZSTD_c_windowLog]: dczWindowLog(dictionary.byteLength, data.byteLength),
      [constants.ZSTD_c_contentSizeFlag]: 0,
    },
    pledgedSrcSize: data.byteLength,
  })
  return Buffer.concat([header, body])
}

/**
 * Decodes a dcb/dcz body with its dictionary the way a browser does: the header must name this
 * dictionary's hash (else it fails), and dcz refuses a window above the RFC's limit.
 */
export async function decodeWithDictionary(encoding: DictionaryEncoding, body: Uint8Array, dictionary: Uint8Array): Promise<Buffer> {
  const expected = dictionaryStreamHeader(encoding, sha256Of(dictionary))
  const length = DICTIONARY_HEADER_LENGTH[encoding]
  if (body.byteLength < length || !Buffer.from(body.buffer, body.byteOffset, length).equals(expected)) {
    throw new PreencodeError('core', 'INTERNAL', `decodeWithDictionary: the ${encoding} header does not name this dictionary`)
  }
  const stream = body.subarray(length)
  if (encoding === 'dcb') return unbrotliAsync(stream, { dictionary })
  const windowLogMax = Math.min(Math.floor(Math.log2(dczWindowLimit(dictionary.byteLength))), DCZ_MAX_WINDOW_LOG)
  return unzstdAsync(stream, { dictionary, params: { [constants.ZSTD_d_windowLogMax]: windowLogMax } })
}
