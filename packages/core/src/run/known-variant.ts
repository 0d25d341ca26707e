// The variant a previous run wrote for these very bytes, still on disk beside its original. A
// cache hit byte for byte equal to it needs no decode: the site keeps what it already serves.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Format } from '../codecs/table.js'
import { withOpenFiles } from '../fs/open-files.js'
import { sha256Hex } from '../hash.js'
import type { ManifestVariant } from '../manifest/manifest.js'
import type { FileJobContext } from './context.js'

/**
 * The `format` variant the previous manifest records for `path` when the original still has the
 * bytes it had then (`sha256`), and the scan found that variant on disk; else undefined.
 */
export function knownVariant(
  ctx: FileJobContext,
  path: string,
  sha256: string,
  format: Format,
): ManifestVariant | undefined {
  const previous = ctx.previousFiles?.get(path)
  if (previous?.sha256 !== sha256) return undefined
  const variant = previous.variants.find((v) => v.format === format)
  return variant && ctx.existingVariants.has(variant.path) ? variant : undefined
}

/**
 * Whether `payload` (a cache entry) is exactly the known variant: the bytes the previous manifest
 * records (size and sha256) and the bytes on disk. Then it was checked when that run wrote it
 * (encoded afresh, or decoded and compared), and whoever crafted a cache entry equal to it
 * changes nothing: the site already serves those bytes. An entry that differs in any byte, or a
 * variant on disk that is not what the manifest records, goes the slow way (decode and compare).
 */
export async function isKnownVariant(ctx: FileJobContext, known: ManifestVariant, payload: Buffer): Promise<boolean> {
  if (payload.byteLength !== known.size) return false
  if (sha256Hex(payload) !== known.sha256) return false
  const onDisk = await withOpenFiles(1, () => readFile(join(ctx.root, known.path))).catch(() => undefined)
  return onDisk?.equals(payload) ?? false
}
