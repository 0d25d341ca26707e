/**
 * The shape of one entry of the dictionary codec table (`DICTIONARY_CODECS` in `table.ts`):
 * the RFC 9842 codings, which compress a file against a dictionary the browser already holds.
 * Like `Codec`, one `params()` feeds both the cache key and the encoder; unlike it, encoding
 * and decoding take the dictionary, and each body starts with a header naming the dictionary.
 */
import type { CodecFile, EncoderParams } from './codec.js'

export interface DictionaryCodec<P extends EncoderParams = EncoderParams> {
  /** The Content-Encoding token (RFC 9842 §4), lowercase. */
  readonly encoding: string
  /** The delta file suffix, dot included (see `deltaPath`). */
  readonly extension: string
  /** The coding of the main table whose level this one uses (`levels.brotli` for dcb). */
  readonly levelOf: 'brotli' | 'zstd'
  /** The bytes before the hash in every body (RFC 9842 §4.1, §4.2). */
  readonly magic: Readonly<Uint8Array>
  /** The encoder parameters for one file, one dictionary size and one level. */
  params(file: CodecFile, level: number, dictionarySize: number): P
  /** Whether these bytes can serve as this coding's dictionary. */
  accepts(dictionary: Uint8Array): boolean
  /** The compressed stream (without the header) made with exactly `params`. */
  encode(data: Uint8Array, params: P, dictionary: Uint8Array): Promise<Buffer>
  /** Decodes a stream (without the header) with the limits a browser applies. */
  decode(stream: Uint8Array, dictionary: Uint8Array): Promise<Buffer>
}
