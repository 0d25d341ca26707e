/**
 * Encoding and decoding through the codec table. The cache key and the encoder both take their
 * parameters from one call to the codec's `params()`, so they cannot drift apart.
 */
import { PreencodeError } from '../errors.js'
import type { CodecFile, EncoderParams } from './codec.js'
import { ALL_FORMATS, codecOf, type Format, formatOfEncoding, isFormat } from './table.js'

/**
 * A string naming every library whose output a cached entry depends on. A Node upgrade that
 * ships a new zlib, brotli or zstd invalidates the cache, since their bytes may differ.
 */
export const ENGINE_VERSION = `preencode-engine/1 zlib/${process.versions.zlib ?? '?'} brotli/${process.versions.brotli ?? '?'} zstd/${process.versions.zstd ?? '?'}`

export interface EncodeHints {
  /**
   * The original's path; picks brotli's mode from its media type.
   * @default undefined (generic mode)
   */
  path?: string
}

/** The encoder parameters for one file: what `encodeWithParams` runs and `encoderSettings` keys. */
export function encoderParams(format: Format, file: CodecFile, level: number): EncoderParams {
  const codec = codecOf(format)
  const [min, max] = codec.levels
  if (!isLevel(format, level)) {
    throw new PreencodeError('core', 'INTERNAL', `encodeBuffer: ${format} level ${level} is outside ${min}-${max}`)
  }
  return codec.params(file, level)
}

/** A level as users write it: a number in the codec's range, or `'max'` (`Codec.maxLevel`). */
export type LevelOption = number | 'max'

/** Whether `level` is one `format` runs: in its range, or its `'max'`. */
function isLevel(format: Format, level: number): boolean {
  const codec = codecOf(format)
  const [min, max] = codec.levels
  return Number.isInteger(level) && ((level >= min && level <= max) || level === codec.maxLevel)
}

/** `'max'` -> the codec's `maxLevel`; a number as it is (check it with `isLevel`). */
export function levelNumber(format: Format, level: LevelOption): number {
  const codec = codecOf(format)
  return level === 'max' ? (codec.maxLevel ?? codec.levels[1]) : level
}

/** The level as users write it: `'max'` for a level beyond the range, else the number. */
export function levelOption(format: Format, level: number): LevelOption {
  return level > codecOf(format).levels[1] ? 'max' : level
}

/**
 * The parameters as a stable string: part of the cache key, so a change of policy in a codec's
 * `params()` never serves bytes made under the old one.
 */
export function encoderSettings(format: Format, params: EncoderParams): string {
  return `${format}:${JSON.stringify(params)}`
}

/** Encodes with parameters from `encoderParams`; nothing else shapes the output. */
export function encodeWithParams(format: Format, data: Uint8Array, params: EncoderParams): Promise<Buffer> {
  return codecOf(format).encode(data, params)
}

/** Compresses a buffer in one format and level; the result is a complete, standalone stream. */
export async function encodeBuffer(
  format: Format,
  data: Uint8Array,
  level: number,
  hints: EncodeHints = {},
): Promise<Buffer> {
  return encodeWithParams(format, data, encoderParams(format, { size: data.byteLength, path: hints.path }, level))
}

/**
 * Decodes a variant: `encoding` is a Content-Encoding token or alias (`gzip`, `x-gzip`, `br`,
 * `zstd`) or a format name. The zstd decoder refuses windows above 8 MiB, like a browser would.
 */
export async function decodeBuffer(encoding: string, data: Uint8Array): Promise<Buffer> {
  const normalized = encoding.trim().toLowerCase()
  const codec = isFormat(normalized) ? codecOf(normalized) : formatOfEncoding(normalized)
  if (!codec) {
    const known = ALL_FORMATS.flatMap((format) => [codecOf(format).encoding, ...codecOf(format).aliases]).join(', ')
    throw new PreencodeError('core', 'INTERNAL', `decodeBuffer: unknown encoding \`${encoding}\`; expected ${known}`)
  }
  return codec.decode(data)
}
