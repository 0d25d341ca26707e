// The paths a manifest may name: relative paths that stay inside the site (`isSafeRelativePath`,
// the rule of the journal, the deltas and the site index: no `..`, no absolute path, no empty or
// `.` segment, no backslash, no NUL). A manifest edited by hand, or another folder's manifest
// linked in, may name `../victim/secret.txt` as a variant: no command opens, uploads or requests
// such a path.
import { type ErrorComponent, userError } from '../errors.js'
import { isSafeRelativePath } from '../paths.js'
import type { Manifest, ManifestFile } from './manifest.js'

/** The paths `file` names (its own, its variants' and deltas') that would lead out of the site. */
export function pathsOutsideSite(file: ManifestFile): string[] {
  const named: unknown[] = [file.path, ...file.variants.map((v) => v.path), ...(file.deltas ?? []).map((d) => d.path)]
  return named.filter((path) => typeof path !== 'string' || !isSafeRelativePath(path)).map(String)
}

/**
 * Refuses a manifest that names a path out of the site, before anything is read by it: the
 * error names the manifest (`source`, its path) and the first such path.
 */
export function refuseManifestOutsideSite(manifest: Manifest, source: string, component: ErrorComponent): void {
  const outside = manifest.files.flatMap(pathsOutsideSite)
  if (outside.length === 0) return
  const more = outside.length > 1 ? ` (and ${outside.length - 1} more)` : ''
  throw userError(
    component,
    `${source} names ${JSON.stringify(outside[0])}${more}, a path out of the site; nothing is read from it. Rebuild to regenerate the manifest.`,
    { code: 'BAD_INPUT' },
  )
}
