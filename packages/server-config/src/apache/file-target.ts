/**
 * How an Apache rule that rewrites a request to a file on disk (a sidecar, a delta) keeps every
 * character of the captured name, `?` included. mod_rewrite splits a substitution at its `?` into
 * path and query string, and since 2.4.60 (CVE-2024-38474) answers 403 when a `?` there came from
 * an encoded `%3F` in the request: a file named `what?.json` was refused to every client that
 * accepts a coding (issue 19).
 *
 * - `.htaccess` / `<Directory>` ("dir"): the substitution becomes an internal redirect, a URL that
 *   Apache parses and decodes again, so `B=?%#` escapes the three characters that would change
 *   its meaning there: `?` (query: the 403), `%` (an escape: `100%.json` got 400) and `#` (a
 *   fragment: `a#b.json` got 404).
 * - vhost ("server"): the substitution is a file-system path, never decoded again (`B` would
 *   leave `%3F` in the name), so a `?` of our own goes last and `QSL` splits there: the path
 *   keeps the whole name and the query string is empty. `UnsafeAllow3F` is then safe: the `?`
 *   of the name can no longer cut the path short, which is the attack the check stops, and the
 *   rule's `-f` condition tested exactly the path that is opened.
 */
export interface FileTarget {
  /** Appended to the substitution. */
  tail: string
  /** The rule's flags, the last one (`END` or `L`) included. */
  flags: string
}

export function fileTarget(dir: boolean): FileTarget {
  return dir ? { tail: '', flags: 'END,B=?%#' } : { tail: '?', flags: 'L,QSL,UnsafeAllow3F' }
}
