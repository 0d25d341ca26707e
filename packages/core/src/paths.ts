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

/**
 * A file name as one printable line: control characters (a newline in a name would split a
 * table row) shown as JSON escapes, e.g. `a\nb.html`.
 */
export function printablePath(path: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return path.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => JSON.stringify(c).slice(1, -1))
}

/** A relative POSIX path that stays inside its root: no `..`, no absolute path, no NUL. */
export function isSafeRelativePath(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    !path.includes('\0') &&
    !path.split('/').some((s) => s === '..' || s === '.' || s === '')
  )
}

/**
 * The extension of a path's last segment with its dot, as written: `.js` for `assets/app.js`,
 * empty for `LICENSE`, `.well-known/x` or a dotfile (`.htaccess`: a leading dot starts a name,
 * not an extension, as for Node's `extname` and nginx's types). The HTML report page inlines its
 * source: it stays self-contained, plain ES2020.
 */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot)
}
