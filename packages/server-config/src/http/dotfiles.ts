/**
 * Dotfiles and dot-folders are never served: the manifest, the deploy state
 * (`.preencode-deploy-state.json`: every key and hash of the last deploys), a `.env`, `.git/`,
 * and the temporary names of an interrupted write or deploy (`.<name>.tmp-…`,
 * `.preencode-tmp-…`) all start with a dot. The one exception is `/.well-known/` at the root
 * (RFC 8615: ACME challenges, security.txt), unless a segment below it starts with a dot too.
 *
 * Every generated config answers such a URL with 404 (a 403 would tell that the file exists);
 * the Node middleware and the Fetch handler answer 404 when the site has such a file, and pass
 * on a dot path it does not have (an app's own route), by the serving specification (`spec.ts`).
 * The patterns are linear (no nested quantifier backtracks on a long URL).
 */

/** PCRE over a URL path with its leading `/` (nginx `$uri`, Apache server context). */
export const DOTFILE_URL_PCRE = '^/(?!\\.well-known/)\\.|/[^/]*/\\.'

/** PCRE over a path relative to the site root (Apache `.htaccess` / `<Directory>` context). */
export const DOTFILE_RELATIVE_PCRE = '^(?!\\.well-known/)\\.|/\\.'

/** RE2 (Caddy), no lookahead: a dot segment anywhere… */
export const DOTFILE_URL_RE2 = '/\\.'
/** …unless it is `/.well-known/` and no segment below it starts with a dot. */
export const WELL_KNOWN_URL_RE2 = '^/\\.well-known/(?:[^./][^/]*/)*(?:[^./][^/]*)?$'

const DOTFILE = new RegExp(DOTFILE_URL_PCRE)

/** Whether a decoded URL path (with its leading `/`) names a dotfile or something inside a dot-folder. */
export function isDotPath(urlPath: string): boolean {
  return DOTFILE.test(urlPath)
}
