/**
 * The CloudFront Function's share of the static-host conventions (`http/conventions.ts`). S3
 * cannot try `about.html` after `about`, so the KeyValueStore says what an extensionless path
 * is: `@` a page (`about.html` exists; no `about` object, no `about/index.html`), `!` an object
 * of its own (`LICENSE`), `/` a directory (`about/index.html`). The function rewrites a page to
 * its `.html` (then negotiated like any HTML) and, with `spa`, any other unknown extensionless
 * path to `/index.html`. The 404 page is the distribution's custom error response (403 and 404 ->
 * `/404.html`, response code 404): a viewer-request function never sees the origin's miss
 * (docs/deploy/s3-cloudfront.md).
 */
import type { Manifest } from '@preencode/core'
import { isExtensionless, type ResolvedConventions } from '../http/conventions.js'

/** KeyValueStore entries for extensionless paths, when a convention needs them. */
export function conventionEntries(manifest: Manifest, conventions: ResolvedConventions): [string, string][] {
  if (!conventions.cleanUrls && !conventions.spa) return []
  const paths = new Set(manifest.files.map((f) => f.path))
  const out = new Map<string, string>()
  for (const path of paths) {
    if (path.endsWith('/index.html')) out.set(path.slice(0, -'/index.html'.length), '/')
    if (isExtensionless(path)) out.set(path, '!')
  }
  if (conventions.cleanUrls)
    for (const path of paths) {
      const clean = path.endsWith('.html') ? path.slice(0, -'.html'.length) : undefined
      if (clean && clean !== '' && !clean.endsWith('/') && isExtensionless(clean) && !out.has(clean)) out.set(clean, '@')
    }
  return [...out].sort(([a], [b]) => (a < b ? -1 : 1))
}

/** The function's code for the conventions: `C` (on or off), `EL` (extensionless) and `page(p)`: 1 its `.html`, 2 the SPA's index, 0 as it is. */
export function conventionCode({ cleanUrls, spa }: ResolvedConventions): string {
  if (!cleanUrls && !spa) return 'var C=false,EL=/^$/;async function page(){return 0}'
  return `// Static-host conventions: an extensionless path the store names a page (@) is its .html${spa ? '; any other unknown one is the SPA\'s /index.html' : ''}.
var C=true,EL=/^\\/(?:.*\\/)?[^.\\/]+$/;
async function page(p){var v=null;try{v=await kvs.get(p)}catch(x){}${cleanUrls ? "if(v==='@')return 1;" : ''}${spa ? 'if(v===null)return 2;' : ''}return 0}`
}
