// Which files of the site stay on this machine: dotfiles and whatever is inside a dot-folder
// (`.env`, `docs/.secret.json`, `.git/`, an editor's swap file) are not uploaded by any target
// unless the deploy asks for them (`includeDotfiles`). The generated configs never serve them
// anyway (server-config `http/dotfiles.ts`), but a bucket or folder may be served by something
// else too, and a secret that never left cannot leak. The same rule for `wrangler deploy` is the
// generated `.assetsignore` (server-config `cloudflare/generate.ts`).

/** `/.well-known/` at the root (RFC 8615: ACME challenges, security.txt) is public by definition. */
const WELL_KNOWN = '.well-known'

/**
 * Apache reads `.htaccess` from the folder it serves: the generated one (`preencode config apache`)
 * is how a shared host serves the variants, so it goes with the site. It holds rules, not secrets
 * (`.htpasswd` does, and stays), and Apache itself never serves a `.ht*` file.
 */
const SERVER_FILES: ReadonlySet<string> = new Set(['.htaccess'])

/**
 * Whether a site path (POSIX, relative) stays local: one of its segments starts with a dot, other
 * than a root `.well-known/` folder and a server file ({@link SERVER_FILES}) as the last segment.
 */
export function isLocalOnly(path: string): boolean {
  const segments = path.split('/')
  return segments.some((segment, index) => {
    if (!segment.startsWith('.')) return false
    if (index === 0 && segment === WELL_KNOWN && segments.length > 1) return false
    return !(index === segments.length - 1 && SERVER_FILES.has(segment))
  })
}
