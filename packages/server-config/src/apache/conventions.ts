/**
 * Apache: the static-host conventions of the serving specification (`http/conventions.ts`).
 * - Clean URLs and the SPA fallback are rewrites placed before the sidecar rules, so the page
 *   they name gets its variants. In a `.htaccess` (`dir`) the rewrite is an internal redirect
 *   that runs the rules again on `about.html`; in the vhost (`server`) the rules go on with the
 *   new URL path and, when no sidecar rule takes it, the last rule maps it to its file.
 * - `ErrorDocument 404 /404.html`: every 404 of the site gets the site's page, which the same
 *   rules negotiate (an ErrorDocument is an internal redirect); the status stays 404.
 * "Extensionless" is the last segment without a dot, as the specification says.
 */

import type { ServingPolicy } from '../shared/policy.js'
import type { FileTarget } from './file-target.js'

const quote = (value: string): string => `"${value.replace(/"/g, '\\"')}"`

/** The rewrites that name the page a missing extensionless URL gets. */
export function apacheConventionRewrites(policy: ServingPolicy, root: string | undefined): string[] {
  const { cleanUrls, spa } = policy.conventions
  if (!cleanUrls && !spa) return []
  const dir = root === undefined
  const file = (ref: string): string => (dir ? `%{REQUEST_FILENAME}${ref}` : `${root}$1${ref}`)
  const pattern = dir ? '^((?:.*/)?[^./]+)$' : '^(/(?:.*/)?[^./]+)$'
  // dir: an internal redirect (the rules run again on the page); server: go on, marked for the last rule.
  const flags = dir ? '[L,B=?%#]' : '[E=PE_PAGE:1]'
  const missing = [`RewriteCond ${quote(file(''))} !-f`, `RewriteCond ${quote(file(''))} !-d`]
  const lines = ['# Static-host conventions (docs/static-host-conventions.md), before the sidecar rules.']
  if (cleanUrls) {
    lines.push(
      '# Clean URLs: /about is about.html when there is no about/ (the query kept).',
      ...missing,
      ...(policy.keepOriginals
        ? [`RewriteCond ${quote(file('.html'))} -f`]
        : [`RewriteCond ${quote(file('.html'))} -f [OR]`, `RewriteCond ${quote(file('.html.gz'))} -f`]),
      `RewriteRule ${quote(pattern)} ${quote(dir ? '$1.html' : '$1.html')} ${flags}`,
    )
  }
  if (spa) {
    lines.push(
      '# SPA fallback: an unknown extensionless path gets /index.html, status 200.',
      ...missing,
      ...(cleanUrls ? [`RewriteCond ${quote(file('.html'))} !-f`] : []),
      `RewriteRule ${quote(pattern)} ${quote(dir ? 'index.html' : '/index.html')} ${flags}`,
    )
  }
  return lines
}

/** vhost: the page a convention named, when no sidecar rule took it, mapped to its file. */
export function apacheConventionFile(policy: ServingPolicy, root: string | undefined, to: FileTarget): string[] {
  const { cleanUrls, spa } = policy.conventions
  if (root === undefined || (!cleanUrls && !spa)) return []
  return [
    '',
    '# The page a convention named, as it is (no acceptable sidecar).',
    'RewriteCond "%{ENV:PE_PAGE}" =1',
    `RewriteRule "^(/.+)$" ${quote(`${root}$1${to.tail}`)} [${to.flags}]`,
  ]
}

/** The site's 404.html for every 404 (none with `notFoundPage: false`). */
export function apacheErrorDocument(policy: ServingPolicy): string[] {
  return policy.notFoundPage
    ? ['', '# Every 404 of the site gets its 404.html (status 404), with its variants.', 'ErrorDocument 404 /404.html']
    : []
}
