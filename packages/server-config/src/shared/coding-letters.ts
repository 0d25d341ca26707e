/**
 * One letter per coding, where a generated config packs codings into short names or values:
 * nginx's acceptable-flag variables (`$P_ok_b` = br) and the CloudFront KeyValueStore values
 * (`bzg`, then `|<dictionary id>bz` for deltas). A dictionary coding takes the letter of the
 * coding it extends (dcb: brotli, dcz: zstd): the two never share a place in one value.
 */
import type { DictionaryEncoding, Encoding } from '@preencode/core'

export const CODING_LETTER = Object.freeze({ br: 'b', zstd: 'z', gzip: 'g' } as const) satisfies Record<
  Encoding,
  string
>

export const DELTA_LETTER = Object.freeze({ dcb: 'b', dcz: 'z' } as const) satisfies Record<DictionaryEncoding, string>

/** `b = br, z = zstd, g = gzip`: the legend a generated file prints for one of the tables. */
export function letterLegend(table: Readonly<Record<string, string>>): string {
  return Object.entries(table)
    .map(([coding, letter]) => `${letter} = ${coding}`)
    .join(', ')
}
