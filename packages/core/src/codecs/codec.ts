/**
 * The shape of one entry of the codec table (`CODECS` in `table.ts`). A coding is one file
 * under `codecs/` exporting one of these, plus one line in the table; every package iterates
 * the table instead of spelling `br` or `.zst` itself.
 */

/** The file being encoded, as far as an encoder's parameters may depend on it. */
export interface CodecFile {
  /** Bytes of the original. */
  readonly size: number
  /**
   * The original's path, relative to the site root; picks content-dependent modes (brotli's
   * text/font model).
   * @default undefined (no path-dependent choice)
   */
  readonly path?: string | undefined
}

/**
 * Everything that shapes an encoder's output, as plain JSON data. The cache key is built from
 * it and the encoder reads nothing else, so a cached entry can never be stale by construction.
 */
export type EncoderParams = Readonly<Record<string, string | number | boolean | readonly number[]>>

/** One entry of the codec table: a content coding, its names, levels, cost, parameters, encoder and decoder. */
export interface Codec<P extends EncoderParams = EncoderParams> {
  /** The name users write in options (`formats: ['brotli']`). */
  readonly format: string
  /** The Content-Encoding token (RFC 9110 §8.4.1), lowercase. */
  readonly encoding: string
  /** Other Accept-Encoding/Content-Encoding tokens that mean the same coding (`x-gzip`). */
  readonly aliases: readonly string[]
  /** The sidecar file suffix, dot included. */
  readonly extension: string
  /** Accepted level/quality range, inclusive. */
  readonly levels: readonly [min: number, max: number]
  readonly defaultLevel: number
  /**
   * The level users name `'max'`: the codec's smallest output at any cost. Beyond `levels` when
   * it takes another engine (gzip: `GZIP_MAX_LEVEL`), else the top of `levels`.
   * @default levels[1]
   */
  readonly maxLevel?: number
  /**
   * Roughly how long one encode takes at `level`, in microseconds per MB: the pool starts the
   * longest first, so only the order matters (`encodeCost`).
   */
  cost(level: number): number
  /** The encoder parameters for one file at one level: the cache key and the encoder both use this. */
  params(file: CodecFile, level: number): P
  /** Encodes with exactly `params`; the result is a complete, standalone stream. */
  encode(data: Uint8Array, params: P): Promise<Buffer>
  /** Decodes a stream of this coding with the limits a browser applies. */
  decode(data: Uint8Array): Promise<Buffer>
}

/** The smallest log2 window that holds the whole input, clamped to [min, max]. */
export function fittedWindowLog(size: number, min: number, max: number): number {
  let log = min
  while (log < max && 2 ** log < size) log++
  return log
}
