/**
 * Caddy: the static-host conventions of the serving specification (`http/conventions.ts`).
 * Caddy runs `header` before `rewrite` (its fixed directive order), so the URL a convention
 * turns into a page is known by a matcher of its own (`@preencode_page`), which also gives it the
 * HTML Cache-Control; `rewrite` then names the page (`{path}.html`, `/index.html`) and
 * `file_server` serves it with its sidecars. The 404 page is `handle_errors 404`, where
 * `file_server` keeps the error's status; it belongs to the site block, so the include form
 * (a `handle {}`) leaves it to the user's own `handle_errors`.
 */
import type { ServingPolicy } from '../shared/policy.js'

/** The Content-Type of `.html`, from the policy's type table. */
function htmlType(policy: ServingPolicy): string {
  return [...policy.extensionsByType].find(([, extensions]) => extensions.includes('html'))?.[0] ?? 'text/html'
}

/** An extensionless path (the last segment has no dot), RE2. */
const EXTENSIONLESS = '`^(?:.*/)?[^./]+$`'

/** The conditions of `@preencode_page` (a URL that a convention answers with a page), one per line. */
function pageConditions(policy: ServingPolicy): string[] {
  const { cleanUrls, spa } = policy.conventions
  if (!cleanUrls && !spa) return []
  return [`path_regexp ${EXTENSIONLESS}`, 'not file {path} {path}/', ...(spa ? [] : ['file {path}.html'])]
}

/** `not { … }` for the default class: a convention's page is HTML. Empty when no convention applies. */
export function caddyNotPage(policy: ServingPolicy): string[] {
  const conditions = pageConditions(policy)
  return conditions.length ? ['\tnot {', ...conditions.map((c) => `\t\t${c}`), '\t}'] : []
}

/** The matcher of a convention's page and its HTML Cache-Control. */
export function caddyPageHeaders(policy: ServingPolicy, quote: (value: string) => string): string[] {
  const conditions = pageConditions(policy)
  if (!conditions.length) return []
  return [
    '@preencode_page {',
    ...conditions.map((c) => `\t${c}`),
    '}',
    `header @preencode_page Cache-Control ${quote(policy.cacheControl.html)}`,
  ]
}

/** The rewrites to the page: clean URLs, then the SPA fallback (Caddy runs the first that matches). */
export function caddyConventionRewrites(policy: ServingPolicy): string[] {
  const { cleanUrls, spa } = policy.conventions
  const lines: string[] = []
  if (cleanUrls)
    lines.push(
      '',
      '# Clean URLs: /about is about.html when there is no about/ (the query kept).',
      '@preencode_clean {',
      `\tpath_regexp ${EXTENSIONLESS}`,
      '\tnot file {path} {path}/',
      '\tfile {path}.html',
      '}',
      'rewrite @preencode_clean {path}.html',
    )
  if (spa)
    lines.push(
      '',
      '# SPA fallback: an unknown extensionless path gets /index.html, status 200.',
      '@preencode_spa {',
      `\tpath_regexp ${EXTENSIONLESS}`,
      `\tnot file {path} {path}/${cleanUrls ? ' {path}.html' : ''}`,
      '}',
      'rewrite @preencode_spa /index.html',
    )
  return lines
}

/** Every 404 of the site gets its 404.html with the error's status, its sidecars and the HTML headers. */
export function caddyNotFound(policy: ServingPolicy, include: boolean, quote: (value: string) => string): string[] {
  if (!policy.notFoundPage) return []
  const precompressed = `\t\tprecompressed ${policy.codings.join(' ')}`
  if (include)
    return [
      '',
      "# The site's 404.html: handle_errors belongs to your site block; add there (notFoundPage: false hides this):",
      '# handle_errors 404 { rewrite * /404.html',
      `#     header Cache-Control ${quote(policy.cacheControl.html)}`,
      `#     file_server { precompressed ${policy.codings.join(' ')} } }`,
    ]
  return [
    '',
    '# Every 404 of the site gets its 404.html (status 404), with its sidecars.',
    'handle_errors 404 {',
    '\trewrite * /404.html',
    "\t# The main route's headers stay on the response: the page's own replace them.",
    `\theader Content-Type ${quote(htmlType(policy))}`,
    `\theader Cache-Control ${quote(policy.cacheControl.html)}`,
    '\tfile_server {',
    precompressed,
    '\t}',
    '}',
  ]
}
