/**
 * Caddy: a Caddyfile site block (or only its directives) serving the sidecars with
 * `file_server { precompressed ... }`. Needs Caddy >= 2.11: Content-Length on pre-compressed
 * responses came with caddyserver/caddy#7251 (fixing #7040, still missing in 2.10.0), Vary on
 * 206/304 with #5849 (2.8); Debian's 2.6.2 sends no Vary on the uncompressed response either.
 *
 * Caddy parses Accept-Encoding itself (q-values, `q=0`, case-insensitive tokens) and picks the
 * highest q; among equal q it uses the order listed after `precompressed`, which is the order
 * that is smallest for most of this site's files (from the manifest). It sets Content-Type
 * from the original's name, Content-Encoding, `Vary: Accept-Encoding`, and an ETag and
 * Range/conditional handling per sidecar file.
 */
import type { Manifest } from '@preencode/core'
import type { Encoding } from './negotiate.js'
import { resolveCaddyOptions, type CaddyConfigOptions } from './options.js'
import { generatedHeader, siteModel } from './site-model.js'

export type { CaddyConfigOptions } from './options.js'

/** The oldest Caddy release whose file_server sends Content-Length with sidecars (tested with 2.11.9). */
export const MIN_CADDY_VERSION = '2.11.0'

const PRECOMPRESSED_NAME: Readonly<Record<Encoding, string>> = { br: 'br', zstd: 'zstd', gzip: 'gzip' }
const PATHS_PER_MATCHER = 200

/** Generates the Caddyfile block. Pure. */
export function caddyConfig(manifest: Manifest, options: CaddyConfigOptions): string {
  const { root, address } = resolveCaddyOptions(options)
  const model = siteModel(manifest)
  const body: string[] = [
    `root * ${quote(root)}`,
    '',
    '# The manifest is for deploy and configs only.',
    `@preencode_manifest path /${model.manifestFilename}`,
    'error @preencode_manifest 404',
    '',
    '# RFC 9110: x-gzip means gzip; Caddy only knows the gzip token.',
    'request_header Accept-Encoding "(?i)(^|,)(\\s*)x-gzip" "${1}${2}gzip"',
    '',
    'header X-Content-Type-Options nosniff',
  ]
  // Caddy's own type table differs from preencode's (charset, js/mjs): state the manifest's.
  const byType = new Map<string, string[]>()
  for (const [extension, type] of model.typeByExtension) byType.set(type, [...(byType.get(type) ?? []), extension])
  let t = 0
  for (const [type, extensions] of byType) {
    body.push(`@preencode_type_${t} path ${extensions.map((e) => `*.${e}`).join(' ')}`, `header @preencode_type_${t++} Content-Type ${quote(type)}`)
  }
  let n = 0
  for (const [cacheControl, files] of model.byCacheControl) {
    const paths: string[] = []
    for (const file of files) {
      paths.push(`/${file.path}`)
      // The header matcher sees the request path: a directory URL names its index.html.
      if (file.path === 'index.html' || file.path.endsWith('/index.html')) paths.push(`/${file.path.slice(0, -'index.html'.length)}`)
    }
    for (let i = 0; i < paths.length; i += PATHS_PER_MATCHER) {
      const name = `@preencode_cache_${n++}`
      body.push(`${name} path ${paths.slice(i, i + PATHS_PER_MATCHER).map(quote).join(' ')}`, `header ${name} Cache-Control ${quote(cacheControl)}`)
    }
  }
  if (model.withoutOriginal.length > 0) {
    body.push(
      '',
      '# keepOriginals: false is not supported by Caddy: file_server needs the original on disk',
      `# (${model.withoutOriginal.length} file(s) have none) and Caddy has no gunzip handler. Use nginx, Apache (vhost) or the Node middleware.`,
    )
  }
  body.push(
    '',
    `# Sidecars, in the order that is smallest for most files (${model.defaultOrder.join(', ')}).`,
    'file_server {',
    `\tprecompressed ${model.defaultOrder.map((e) => PRECOMPRESSED_NAME[e]).join(' ')}`,
    `\thide ${model.manifestFilename}`,
    '}',
  )
  const head = [generatedHeader('#', manifest), `# Caddy >= ${MIN_CADDY_VERSION}.`]
  if (address === '') return `${[...head, ...body].join('\n')}\n`
  return `${[...head, `${address} {`, ...body.map((l) => (l ? `\t${l}` : l)), '}'].join('\n')}\n`
}

function quote(value: string): string {
  return /^[\w/.,=;:+-]+$/.test(value) ? value : `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`
}
