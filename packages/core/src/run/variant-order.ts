// Which variants of one file are written, and in what order.
import { ALL_FORMATS, type Format } from '../codecs/table.js'

/**
 * The variants to write, smallest first (ties in the servers' order of preference,
 * `ALL_FORMATS`, the codec table's order).
 *
 * Every generated config tries the acceptable codings in that fixed order (br, zstd, gzip) and
 * serves the first that exists; it does not know sizes. Where a file's own sizes disagree (a
 * zstd variant a few bytes smaller than the br one), the fixed order's pick is sent: on
 * bench/app no `.zst` is smaller than its `.br`, and 9 of 95 `.gz` are 1–7 bytes smaller than
 * their `.zst` (28 bytes in all, for a client that takes zstd and gzip but not br).
 */
export function variantsToWrite<T extends { format: Format; bytes: Uint8Array }>(worthWriting: readonly T[]): T[] {
  return [...worthWriting].sort(
    (a, b) => a.bytes.byteLength - b.bytes.byteLength || ALL_FORMATS.indexOf(a.format) - ALL_FORMATS.indexOf(b.format),
  )
}
