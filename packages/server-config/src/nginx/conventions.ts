/**
 * nginx: the static-host conventions of the serving specification (`http/conventions.ts`) as two
 * named locations, at server level in both forms:
 * - `@P_fallback`, where `location /` sends a URL that is neither a file nor a directory
 *   (`try_files $uri $uri/ @P_fallback`): clean URLs (`/about` -> `/about.html`, rewritten so the
 *   HTML location serves it with its variants and headers) and the SPA fallback (`/index.html`);
 * - `@P_404`, the site's `404.html` with status 404 (`error_page 404 @P_404` keeps the status):
 *   its variants chosen by the same `$P_s1..3` maps as every stage, `try_files` opening the first
 *   that exists; headers `always`, since nginx adds the others only to 2xx/3xx answers. With
 *   `notFoundPage` (the default) every 404 of the site goes there; `false` leaves 404s to the
 *   server's own `error_page` (an include form in a server block that has one).
 */
import { type ServingPolicy, SUFFIX } from '../shared/policy.js'
import { type NginxNames, nginxString as q } from './names.js'

/** `try_files`'s last parameter in `location /`: the fallback location, or a plain 404 when no convention applies. */
export function fallbackTarget(n: NginxNames, policy: ServingPolicy): string {
  const { cleanUrls, spa } = policy.conventions
  return cleanUrls || spa ? `@${n.prefix}_fallback` : '=404'
}

/**
 * The named locations. With `notFoundPage`, the fallback's 404 goes to `@P_404` (the
 * `error_page` of the server block, or of `location /` in the include form, sends every other
 * 404 there); without, to the server's own `error_page`.
 */
export function conventionLocations(n: NginxNames, policy: ServingPolicy, root: string): string[] {
  const { cleanUrls, spa } = policy.conventions
  const htmlType = [...policy.extensionsByType].find(([, extensions]) => extensions.includes('html'))?.[0]
  const fallback = [
    `location @${n.prefix}_fallback {`,
    `    root ${q(root)};`,
    ...(policy.notFoundPage ? [`    error_page 404 @${n.prefix}_404;`] : []),
    ...(cleanUrls
      ? [
          '    # Clean URLs: /about is about.html when there is no about/ (try_files checked it), with its variants.',
          `    if (-f $request_filename.html) { rewrite "^(.*/[^./]+)$" $1.html last; }`,
          ...(policy.keepOriginals
            ? []
            : [`    if (-f $request_filename.html.gz) { rewrite "^(.*/[^./]+)$" $1.html last; }`]),
        ]
      : []),
    ...(spa
      ? [
          "    # SPA fallback: an unknown extensionless path is the app's index.html, status 200.",
          '    rewrite "/[^./]+$" /index.html last;',
        ]
      : []),
    '    return 404;',
    '}',
  ]
  const page = [
    `location @${n.prefix}_404 {`,
    `    root ${q(root)};`,
    `    try_files ${[1, 2, 3]
      .slice(0, policy.codings.length)
      .map((i) => `/404.html${n.v(`s${i}`)}`)
      .join(' ')} /404.html =404;`,
    `    types { } default_type ${q(htmlType ?? 'text/html')};`,
    '    gzip off;',
    `    add_header Content-Encoding ${n.v('nf_ce')} always;`,
    '    add_header Vary Accept-Encoding always;',
    `    add_header Cache-Control ${q(policy.cacheControl.html)} always;`,
    '    add_header X-Content-Type-Options nosniff always;',
    '}',
  ]
  return [...(cleanUrls || spa ? [...fallback, ''] : []), ...page]
}

/** The `error_page` that sends every 404 to the site's 404 page (none without `notFoundPage`). */
export function notFoundErrorPage(n: NginxNames, policy: ServingPolicy): string[] {
  return policy.notFoundPage
    ? [
        '# Every 404 of the site answers with its 404.html (status 404), as static hosts do.',
        `error_page 404 @${n.prefix}_404;`,
      ]
    : []
}

/** The http-context map `@P_404` reads (both forms define it, so the user's `error_page` can name `@P_404`). */
export function conventionMaps(n: NginxNames, policy: ServingPolicy): string[] {
  return [
    "# The coding of the 404.html variant try_files found (for the site's 404 page).",
    `map $uri ${n.v('nf_ce')} {`,
    '    default "";',
    ...policy.codings.map((e) => `    ${q(`~\\.html\\${SUFFIX[e]}$`)} ${e};`),
    '}',
    '',
  ]
}
