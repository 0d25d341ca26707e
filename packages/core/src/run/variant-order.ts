// Which variants of one file are written, in what order, and which carry the u+x mark the
// generated server configs test (docs/servers/*).
import { ALL_FORMATS, type Format } from '../codecs/table.js'

/**
 * The variants to write, smallest first (ties in the servers' order of preference,
 * `ALL_FORMATS`, the codec table's order), and which of them to mark executable (`u+x`).
 *
 * Every generated config tries the acceptable codings in that fixed order and serves the first
 * that exists; it does not know sizes. Where this file's sizes disagree with that order, a
 * mark says so, and the configs test it (`-x`, one stat, only for the clients it concerns): a
 * variant is marked when it is smaller than the one just before it in the table (with the
 * table br, zstd, gzip: the zstd variant smaller than the br one, for clients that take both;
 * the gzip variant smaller than the zstd one, for clients that take both but not br). A first
 * coding larger than the third (a few bytes, on tiny files) is still preferred by the servers.
 */
export function variantsToWrite<T extends { format: Format; bytes: Uint8Array }>(
  worthWriting: readonly T[],
): { kept: T[]; marked: Set<Format> } {
  const kept = [...worthWriting].sort(
    (a, b) => a.bytes.byteLength - b.bytes.byteLength || ALL_FORMATS.indexOf(a.format) - ALL_FORMATS.indexOf(b.format),
  )
  const size = (format: Format): number | undefined => kept.find((c) => c.format === format)?.bytes.byteLength
  const smaller = (a: Format, b: Format): boolean =>
    size(a) !== undefined && size(b) !== undefined && size(a)! < size(b)!
  const marked = new Set<Format>()
  for (let i = 1; i < ALL_FORMATS.length; i++)
    if (smaller(ALL_FORMATS[i]!, ALL_FORMATS[i - 1]!)) marked.add(ALL_FORMATS[i]!)
  return { kept, marked }
}
