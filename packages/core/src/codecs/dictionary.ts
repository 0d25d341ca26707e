/**
 * Encoding and decoding through the dictionary codec table (`DICTIONARY_CODECS`): the two codings
 * of RFC 9842 §4. Every body is the coding's magic + the dictionary's SHA-256 + the stream:
 * - `dcb`: `FF 44 43 42` + hash (36 bytes) + brotli with the dictionary as a raw prefix;
 * - `dcz`: `5E 2A 4D 18 20 00 00 00` + hash (40 bytes, a zstd skippable frame) + zstd with the
 *   raw dictionary, window at most max(8 MiB, 1.25 x dictionary).
 * Node >= 24.15 takes a raw `dictionary` for brotli (zstd since 22.19).
 */

import { PreencodeError, userError } from '../errors.js'
import type { EncoderParams } from './codec.js'
import type { DictionaryCodec } from './dictionary-codec.js'
import { sha256Of } from './dictionary-hash.js'
import { CODECS, DICTIONARY_CODECS } from './table.js'

export { dczWindowLimit } from './dcz.js'
export type { DictionaryCodec } from './dictionary-codec.js'

/** A dictionary-compressed content coding, as written in Content-Encoding. */
export type DictionaryEncoding = keyof typeof DICTIONARY_CODECS

export const DICTIONARY_ENCODINGS: readonly DictionaryEncoding[] = Object.freeze(
  Object.keys(DICTIONARY_CODECS) as DictionaryEncoding[],
)

/** Brotli with a dictionary came in Node 24.15 (zstd's in 22.19). */
const DICTIONARY_MIN_NODE = '24.15.0'

export function isDictionaryEncoding(value: unknown): value is DictionaryEncoding {
  return typeof value === 'string' && Object.hasOwn(DICTIONARY_CODECS, value)
}

/** A coding's entry with its parameter type erased. */
export function dictionaryCodecOf(encoding: DictionaryEncoding): DictionaryCodec {
  return DICTIONARY_CODECS[encoding] as DictionaryCodec
}

/** Whether this Node can write dcb and dcz. */
export function supportsDictionaryCompression(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  const [needMajor = 0, needMinor = 0] = DICTIONARY_MIN_NODE.split('.').map(Number)
  return major > needMajor || (major === needMajor && minor >= needMinor)
}

/**
 * The one wording of "this Node cannot write deltas": `what` needs the Node, `off` says how to
 * do without (`set \`deltas: false\``, `pass --no-deltas`).
 */
export function dictionaryNodeProblem(what: string, off: string): string {
  return `${what} needs Node >= ${DICTIONARY_MIN_NODE} (brotli with a dictionary); this is Node ${process.versions.node}. Upgrade Node or ${off}.`
}

/** Fails with a message saying which Node is needed, naming the option that asked for it. */
export function assertDictionarySupport(option: string): void {
  if (!supportsDictionaryCompression())
    throw userError('core', dictionaryNodeProblem(`\`${option}\``, `set \`${option}: false\``), { code: 'BAD_INPUT' })
}

/** Header length of each coding's body: magic + 32-byte hash. */
function dictionaryHeaderLength(encoding: DictionaryEncoding): number {
  return DICTIONARY_CODECS[encoding].magic.byteLength + 32
}

/** The header that starts every body of this coding, for a dictionary of this hash. */
export function dictionaryStreamHeader(encoding: DictionaryEncoding, dictionarySha256: Uint8Array): Buffer {
  if (dictionarySha256.byteLength !== 32) throw new TypeError('dictionaryStreamHeader: the hash must be 32 bytes')
  return Buffer.concat([DICTIONARY_CODECS[encoding].magic, dictionarySha256])
}

export interface DictionaryEncodeOptions {
  /**
   * The level of the coding this one extends (`levelOf`: brotli's quality for dcb, zstd's level for dcz).
   * @default that coding's default level
   */
  level?: number
  /** The file's path: picks brotli's text/font mode. @default undefined */
  path?: string
}

/** The encoder parameters for a file of `dataSize` bytes against a dictionary of `dictionarySize`. */
export function dictionaryEncoderParams(
  encoding: DictionaryEncoding,
  dataSize: number,
  dictionarySize: number,
  options: DictionaryEncodeOptions = {},
): EncoderParams {
  return dictionaryCodecOf(encoding).params(
    { size: dataSize, path: options.path },
    options.level ?? CODECS[DICTIONARY_CODECS[encoding].levelOf].defaultLevel,
    dictionarySize,
  )
}

/** Whether `dictionary` can be used by this coding (zstd would parse a trained dictionary's magic). */
export function acceptsDictionary(encoding: DictionaryEncoding, dictionary: Uint8Array): boolean {
  return dictionaryCodecOf(encoding).accepts(dictionary)
}

/** Compresses `data` against `dictionary` with exactly `params`: a complete body, header included. */
export async function encodeWithDictionaryParams(
  encoding: DictionaryEncoding,
  data: Uint8Array,
  dictionary: Uint8Array,
  params: EncoderParams,
): Promise<Buffer> {
  const codec = dictionaryCodecOf(encoding)
  if (!codec.accepts(dictionary))
    throw new PreencodeError('core', 'INTERNAL', `encodeWithDictionary: this dictionary cannot be used for ${encoding}`)
  return Buffer.concat([
    dictionaryStreamHeader(encoding, sha256Of(dictionary)),
    await codec.encode(data, params, dictionary),
  ])
}

/** Compresses `data` against `dictionary`; the result is a complete body of that coding. */
export function encodeWithDictionary(
  encoding: DictionaryEncoding,
  data: Uint8Array,
  dictionary: Uint8Array,
  options: DictionaryEncodeOptions = {},
): Promise<Buffer> {
  return encodeWithDictionaryParams(
    encoding,
    data,
    dictionary,
    dictionaryEncoderParams(encoding, data.byteLength, dictionary.byteLength, options),
  )
}

/**
 * Decodes a body the way a browser does: the header must name this dictionary's hash (else
 * it fails), and dcz refuses a window above the RFC's limit.
 */
export async function decodeWithDictionary(
  encoding: DictionaryEncoding,
  body: Uint8Array,
  dictionary: Uint8Array,
): Promise<Buffer> {
  const length = dictionaryHeaderLength(encoding)
  if (
    body.byteLength < length ||
    !Buffer.from(body.buffer, body.byteOffset, length).equals(dictionaryStreamHeader(encoding, sha256Of(dictionary)))
  ) {
    throw new PreencodeError(
      'core',
      'INTERNAL',
      `decodeWithDictionary: the ${encoding} header does not name this dictionary`,
    )
  }
  return dictionaryCodecOf(encoding).decode(body.subarray(length), dictionary)
}
