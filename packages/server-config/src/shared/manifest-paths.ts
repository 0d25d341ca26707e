/**
 * The paths a manifest may name: relative paths that stay inside the site (core's
 * `isSafeRelativePath`, the rule of the journal, the deltas and `index`: no `..`, no absolute
 * path, no empty or `.` segment, no backslash, no NUL). A manifest edited by hand, or another
 * folder's manifest linked in, may name `../victim/secret.txt` as a variant: the serving side
 * never opens such a path (the site on disk drops the file's entry with one warning; the
 * Cloudflare Worker's data refuses the manifest).
 */
import type { ManifestFile } from '@preencode/core'
import { isSafeRelativePath } from '@preencode/core/internal'

/** The paths `file` names (its own, its variants' and deltas') that would lead out of the site. */
export function pathsOutsideSite(file: ManifestFile): string[] {
  const named: unknown[] = [file.path, ...file.variants.map((v) => v.path), ...(file.deltas ?? []).map((d) => d.path)]
  return named.filter((path) => typeof path !== 'string' || !isSafeRelativePath(path)).map(String)
}
