/**
 * The CloudFront Function's share of the static-host conventions (`http/conventions.ts`). S3
 * cannot try `about.html` after `about`, so the function decides by name, with the
 * KeyValueStore's word where a name is not what it looks like:
 * - clean URLs: an extensionless path is rewritten to its `.html` (then negotiated like any
 *   HTML), unless the store marks it `!` (an object of its own, `LICENSE`). A path with neither
 *   gets S3's miss, as it did before, so no page needs an entry: a site of 100,000 pages costs
 *   the store nothing. A directory with a page of the same name (`about/` and `about.html`) is
 *   marked `/` and left as it is: the specification redirects it to `/about/`.
 * - `spa`: the store also marks every page `@` and every directory `/` (`about/index.html`);
 *   an extensionless path it does not list is the SPA's `/index.html`.
 * The 404 page is the distribution's custom error response (403 and 404 -> `/404.html`,
 * response code 404): a viewer-request function never sees the origin's miss
 * (docs/deploy/s3-cloudfront.md).
 */
import type { Manifest } from '@preencode/core'
import { isExtensionless, type ResolvedConventions } from '../http/conventions.js'

/** KeyValueStore entries for extensionless paths, when a convention needs them. */
export function conventionEntries(manifest: Manifest, conventions: ResolvedConventions): [string, string][] {
  if (!conventions.cleanUrls && !conventions.spa) return []
  const out = new Map<string, string>()
  const paths = new Set(manifest.files.map((f) => f.path))
  for (const path of paths) {
    if (isExtensionless(path)) out.set(path, '!')
    // A directory wins over its `.html` sibling (the specification redirects there): listed when both exist.
    const directory = path.endsWith('/index.html') ? path.slice(0, -'/index.html'.length) : undefined
    if (directory && (conventions.spa || paths.has(`${directory}.html`))) out.set(directory, '/')
    if (!conventions.spa) continue
    const page = path.endsWith('.html') ? path.slice(0, -'.html'.length) : ''
    if (conventions.cleanUrls && page !== '' && !page.endsWith('/') && isExtensionless(page) && !out.has(page))
      out.set(page, '@')
  }
  return [...out].sort(([a], [b]) => (a < b ? -1 : 1))
}

/** The function's code: `C` (a convention is on), `EL` (extensionless) and `page(p)`: 1 its `.html`, 2 the SPA's index, 0 as it is. */
export function conventionCode({ cleanUrls, spa }: ResolvedConventions): string {
  if (!cleanUrls && !spa) return 'var C=false,EL=/^$/;async function page(){return 0}'
  const rule = spa ? `${cleanUrls ? "if(v==='@')return 1;" : ''}if(v===null)return 2;` : 'if(v===null)return 1;'
  return `// Static-host conventions: an extensionless path is its .html${spa ? " when the store names it a page (@); any other unknown one is the SPA's /index.html" : ' unless the store names it an object (!)'}.
var C=true,EL=/^\\/(?:.*\\/)?[^.\\/]+$/;
async function page(p){var v=null;try{v=await kvs.get(p)}catch(x){}${rule}return 0}`
}
