import { chmod, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { withOpenFiles } from '../fs/open-files.js'
import { writeVariantAtomically } from '../fs/write.js'
import type { FileJobContext } from './context.js'

/**
 * Leaves an identical variant (same bytes, same mtime) alone: a warm rebuild then writes nothing.
 * `sameBytes`: the bytes on disk were just compared with these (`isKnownVariant`).
 */
export async function writeIfChanged(
  ctx: FileJobContext,
  variantPath: string,
  bytes: Buffer,
  mtimeMs: number,
  mode: number,
  sameBytes: boolean,
): Promise<boolean> {
  const absolute = join(ctx.root, variantPath)
  let unchangedMode: number | undefined
  if (ctx.existingVariants.has(variantPath)) {
    const current = await stat(absolute).catch(() => undefined)
    if (current?.isFile() && current.size === bytes.byteLength && Math.abs(current.mtimeMs - mtimeMs) < 1) {
      const onDisk = sameBytes ? bytes : await withOpenFiles(1, () => readFile(absolute)).catch(() => undefined)
      if (onDisk?.equals(bytes)) unchangedMode = current.mode
    }
  }
  const changed = unchangedMode === undefined
  if (changed) {
    // Journaled first: a run killed after the rename leaves a file the next run knows is ours.
    await ctx.journal?.record(variantPath, bytes)
    await writeVariantAtomically(absolute, bytes, mtimeMs, mode)
  }
  // The mode (the original's, never executable: `FileJob.mode`) set or corrected whether or not
  // the bytes changed: a variant an older version made executable (u+x) loses that bit on the next run.
  if (unchangedMode !== undefined && (unchangedMode & 0o7777) !== mode) await chmod(absolute, mode)
  return changed
}
