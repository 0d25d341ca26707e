/**
 * The conventions every static host has (GitHub Pages, Netlify, Cloudflare Pages, Vercel), as
 * the serving specification decides them once for every server preencode serves or configures
 * (docs/static-host-conventions.md). A request for a path the site has no file for, after the
 * directory redirect (`/about` -> `/about/` when `about/index.html` exists), falls back in this
 * order:
 * 1. **Clean URLs** (`cleanUrls`, on by default): an extensionless path (`/about`, `/docs/intro`)
 *    is answered with `<path>.html` (its variants, Vary and the HTML Cache-Control), the query
 *    kept. `/about.html` itself still answers 200, as on GitHub Pages and Netlify (Cloudflare
 *    Pages redirects it): a redirect would cost every existing `.html` link (VitePress without
 *    `cleanUrls`, Astro's `build.format: 'file'`) a round trip, and nothing is cached twice that
 *    a `<link rel="canonical">` of the framework does not already settle.
 * 2. **SPA fallback** (`spa`, off by default): an extensionless path is answered with the root
 *    `index.html`, status 200, as Cloudflare Pages'
 *    `not_found_handling: 'single-page-application'`, Netlify's `/* /index.html 200` and
 *    sirv's/serve's `--single` do. Paths with an extension (`/app.js`) still get 404: a missing
 *    asset must not come back as HTML.
 * 3. **404 page**: the site's `404.html` with status 404, compressed like any page. A site
 *    without one gets the server's plain 404.
 * "Extensionless" means the last segment has no dot: `/v1.2` is not a clean URL of `v1.2.html`;
 * a URL ending in `/` names a directory and gets its index or the 404 page.
 */

/** The static-host conventions, as options every server of preencode takes. */
export interface ConventionOptions {
  /**
   * Clean URLs, as GitHub Pages, Netlify, Cloudflare Pages and Vercel (`cleanUrls`) serve them:
   * `/about` gets `about.html` when there is no `about/index.html`. A site without such files
   * sees no change.
   * @default true
   */
  cleanUrls?: boolean
  /**
   * Single-page app fallback: an unknown extensionless path gets the root `index.html` with
   * status 200 (client-side routing), as Cloudflare Pages and Netlify offer; paths with an
   * extension still get 404.
   * @default false
   */
  spa?: boolean
}

/** The conventions resolved. */
export type ResolvedConventions = Required<ConventionOptions>

/** The conventions' defaults: clean URLs on, the SPA fallback off. */
export const DEFAULT_CONVENTIONS = Object.freeze({ cleanUrls: true, spa: false } satisfies ResolvedConventions)

/** The page sent, with status 404, for a path the site has no file for. */
const NOT_FOUND_PAGE = '404.html'

/** Whether a site-relative path names no extension in its last segment (`about`, `docs/intro`, `blog/`). */
export function isExtensionless(path: string): boolean {
  return !/\.[^/]*$/.test(path)
}

/** One fallback: the file of the site that answers instead, and the status it is sent with. */
export interface Fallback {
  path: string
  status: 200 | 404
}

/** What the fallbacks apply to: a request for a file the site does not have. */
export interface Missing {
  /** The path asked for, relative to the root (a directory URL already names its index). */
  path: string
  /** The path as asked, before the index was appended (`blog/` for `blog/index.html`). */
  asked: string
  /** A dotfile or a file in a dot-folder: only the 404 page. */
  hidden: boolean
}

/**
 * The files to try, in order, for a path the site has no file for (and no directory to
 * redirect to). `notFoundPage` is false where an app behind the server answers instead (the
 * middleware and the handler with `fallthrough`).
 */
export function fallbacksOf(
  missing: Missing,
  conventions: ResolvedConventions,
  index: string,
  notFoundPage: boolean,
): Fallback[] {
  const out: Fallback[] = []
  // A URL ending in `/` names a directory (its index), not a page of either convention.
  const page = !missing.hidden && missing.asked !== '' && !missing.asked.endsWith('/') && isExtensionless(missing.asked)
  if (conventions.cleanUrls && page) out.push({ path: `${missing.asked}.html`, status: 200 })
  if (conventions.spa && page) out.push({ path: index, status: 200 })
  if (notFoundPage) out.push({ path: NOT_FOUND_PAGE, status: 404 })
  return out.filter((f) => f.path !== missing.path)
}
