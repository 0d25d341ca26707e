import { isAbsolute, relative, sep } from 'node:path'

/** True when `child` lies strictly inside `parent` (both absolute). */
export function isInsideDirectory(child: string, parent: string): boolean {
  const rel = relative(parent, child)
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}

/**
 * Drops directories inside another one of the list: a build with several outputs nested in
 * one another is compressed once, from the outer directory.
 */
export function outermostDirectories(dirs: readonly string[]): string[] {
  return dirs.filter((dir) => !dirs.some((other) => other !== dir && isInsideDirectory(dir, other)))
}
