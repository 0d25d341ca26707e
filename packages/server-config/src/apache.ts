/**
 * Apache 2.4: a `.htaccess` for the site root (shared hosting: mod_rewrite + mod_mime +
 * mod_headers + mod_env, `AllowOverride FileInfo`) or the same rules inside `<Directory root>`
 * for a vhost.
 *
 * How a request is served:
 * - `RewriteCond %{HTTP:Accept-Encoding}` regexes (`accept-regex.ts`: q-values, whole tokens,
 *   `x-gzip`, `*`) set `PE_AE_*` environment flags; Apache has no Accept-Encoding parser of its
 *   own for this (mod_negotiation's MultiViews is a different, file-name-based mechanism).
 * - Files whose smallest-first order differs from the site's usual one get their own rules;
 *   the rest share rules that try `<file>.<suffix>` (`-f`) in the usual order. `[END]` stops
 *   the rewrite from running again on the sidecar.
 * - `ForceType` (per original extension) keeps the original's Content-Type on the sidecar;
 *   `AddEncoding` scoped to sidecar names sets Content-Encoding (so `*.tar.gz` stays
 *   `application/gzip` without one); `no-gzip`/`no-brotli` keep mod_deflate/mod_brotli off.
 * - ETags are Apache's own (`FileETag MTime Size` by default) of the file sent: variants are
 *   smaller than the original and equal-size variants are left out, so each representation
 *   has its own ETag and Apache's conditional/Range handling is per representation.
 * - `keepOriginals: false`: when the original is missing and no coding is acceptable, the
 *   gzip variant is sent through mod_deflate's INFLATE output filter.
 */
import { DEFAULT_CACHE_CONTROL, type Manifest } from '@preencode/core'
import { apacheDictionaryFileRules, apacheDictionaryRewrites } from './dictionary-apache.js'
import { acceptPattern, refusePattern } from './accept-regex.js'
import type { Encoding } from './negotiate.js'
import { resolveApacheOptions, type ApacheConfigOptions } from './options.js'
import { SUFFIX, escapeRegex, generatedHeader, needsOwnOrder, siteModel, type SiteModel } from './site-model.js'

export type { ApacheConfigOptions } from './options.js'

/** PCRE2 in Debian is built with a 64 KiB compiled-pattern limit: keep name lists well below. */
const NAMES_PER_PATTERN = 100
const ENV: Readonly<Record<Encoding | '*', string>> = { br: 'PE_AE_BR', zstd: 'PE_AE_ZSTD', gzip: 'PE_AE_GZIP', '*': 'PE_AE_STAR' }
const RANK: Readonly<Record<string, number>> = { html: 0, default: 1, immutable: 2 }

/** Generates `.htaccess` (default) or vhost rules. Pure. */
export function apacheConfig(manifest: Manifest, options: ApacheConfigOptions = {}): string {
  const { form, root } = resolveApacheOptions(options)
  const model = siteModel(manifest)
  const head = [
    generatedHeader('#', manifest),
    `# Apache 2.4 ${form === 'htaccess' ? '.htaccess for the site root' : `rules for ${root}; Include inside your <VirtualHost>`}.`,
    '# Needs mod_rewrite, mod_mime, mod_headers, mod_env' +
      (model.withoutOriginal.length > 0 ? ', mod_deflate (INFLATE for keepOriginals: false)' : '') + '.',
    ...(form === 'htaccess'
      ? ['# Needs `AllowOverride FileInfo` and `Options FollowSymLinks` (or SymLinksIfOwnerMatch) for this directory.']
      : []),
    '',
  ]
  if (form === 'htaccess') {
    return `${[...head, ...rewriteRules(model, { kind: 'dir' }), ...typeRules(model), ...cacheRules(model)].join('\n')}\n`
  }
  // vhost: the rewrite runs in server context, where mapping a URL to a file is not an internal
  // redirect; mod_deflate's INFLATE filter only works on the initial request.
  return `${[
    ...head,
    ...rewriteRules(model, { kind: 'server', root: root! }),
    '',
    `<Directory ${quote(root!)}>`,
    '    AllowOverride None',
    '    Options FollowSymLinks',
    '    Require all granted',
    '    DirectoryIndex index.html',
    ...[...typeRules(model), ...inflateRules(model), ...cacheRules(model)].map((l) => (l ? `    ${l}` : l)),
    '</Directory>',
  ].join('\n')}\n`
}

function quote(value: string): string {
  return `"${value.replace(/"/g, '\\"')}"`
}

function okCondition(coding: Encoding): string {
  // Named and accepted (`1:` + anything), or not named while `*` is accepted (`:1`).
  return `RewriteCond "%{ENV:${ENV[coding]}}:%{ENV:${ENV['*']}}" "^(?:1:|:1$)"`
}

type Context = { kind: 'dir' } | { kind: 'server'; root: string }

function rewriteRules(model: SiteModel, ctx: Context): string[] {
  // dir (.htaccess / <Directory>): paths are relative to the site root and a rewrite is an
  // internal redirect ([END] keeps it from running again on the sidecar). server: URL paths
  // with a leading slash, rewritten straight to files under the root.
  const dir = ctx.kind === 'dir'
  const fileOf = (ref: string): string => (dir ? `%{REQUEST_FILENAME}` : `${ctx.root}${ref}`)
  const target = (ref: string): string => (dir ? ref : `${ctx.root}${ref}`)
  // Only names with an extension that has a type rule below: a sidecar of anything else would
  // go out without its Content-Type and Content-Encoding. Case-insensitive, like the FilesMatch.
  const extensions = [...model.typeByExtension.keys()].map(escapeRegex).join('|')
  const all = `(?i)^(${dir ? '' : '/'}.+\\.(?:${extensions}))$`
  const end = dir ? 'END' : 'L'
  const lines: string[] = [
    'RewriteEngine On',
    '',
    '# The manifest is for deploy and configs only.',
    `RewriteRule "(?:^|/)${escapeRegex(model.manifestFilename)}$" - [R=404,L]`,
    '',
    '# Accept-Encoding per RFC 9110 §12.5.3 -> PE_AE_* = 1 (accepted) or 0 (refused with q=0); unset when not named.',
  ]
  for (const coding of ['br', 'zstd', 'gzip', '*'] as const) {
    lines.push(
      `RewriteCond "%{HTTP:Accept-Encoding}" ${quote(refusePattern(coding))} [NC,NV]`,
      `RewriteRule ^ - [E=${ENV[coding]}:0]`,
      `RewriteCond "%{HTTP:Accept-Encoding}" ${quote(acceptPattern(coding))} [NC,NV]`,
      `RewriteRule ^ - [E=${ENV[coding]}:1]`,
    )
  }
  lines.push(...apacheDictionaryRewrites(ctx))
  if (dir && model.withoutOriginal.length > 0) {
    lines.push(
      '',
      '# keepOriginals: false — mod_dir finds no index.html on disk: name it here so its variants are found.',
      'RewriteCond "%{REQUEST_FILENAME}" -d',
      'RewriteRule "^(.*/)?$" "$1index.html"',
    )
  }
  const own = model.withVariants.filter((f) => needsOwnOrder(model, f))
  if (own.length > 0) {
    lines.push('', '# Files whose smallest variant is not the usual one.')
    for (const f of own) {
      const path = dir ? f.file.path : `/${f.file.path}`
      for (const coding of f.order) {
        lines.push(okCondition(coding), `RewriteRule "^${escapeRegex(path)}$" ${quote(target(path.replace(/[\s\\$%]/g, '\\$&') + SUFFIX[coding]))} [${end}]`)
      }
    }
  }
  if (model.withVariants.length === 0) return lines
  lines.push('', `# Every other file: the smallest acceptable variant that exists (${model.defaultOrder.join(', ')}).`)
  for (const coding of model.defaultOrder) {
    lines.push(okCondition(coding), `RewriteCond "${fileOf('$1')}${SUFFIX[coding]}" -f`, `RewriteRule "${all}" "${target('$1')}${SUFFIX[coding]}" [${end}]`)
  }
  if (model.withoutOriginal.length > 0) {
    lines.push(
      '',
      '# keepOriginals: false — the original is not on disk and no coding is acceptable: the gzip variant,',
      dir
        ? '# refused with 406: mod_deflate\'s INFLATE filter skips internal redirects, which .htaccess rewrites are (use the vhost form).'
        : '# decoded by mod_deflate\'s INFLATE filter (see the <If> below).',
      `RewriteCond "${fileOf('$1')}" !-f`,
      `RewriteCond "${fileOf('$1')}.gz" -f`,
      dir ? `RewriteRule "${all}" - [R=406,L]` : `RewriteRule "${all}" "${target('$1')}.gz" [E=PE_INFLATE:1,L]`,
    )
  }
  return lines
}

function inflateRules(model: SiteModel): string[] {
  if (model.withoutOriginal.length === 0) return []
  return [
    '',
    '# keepOriginals: false — decode for clients that take no gzip (a Range would bypass INFLATE: drop it).',
    '<If "-n reqenv(\'PE_INFLATE\')">',
    '    SetOutputFilter INFLATE',
    '    RequestHeader unset Range',
    '    RequestHeader unset If-Range',
    '</If>',
  ]
}

function typeRules(model: SiteModel): string[] {
  const byType = new Map<string, string[]>()
  for (const [extension, type] of model.typeByExtension) {
    byType.set(type, [...(byType.get(type) ?? []), extension])
  }
  const allExtensions = [...model.typeByExtension.keys()].map(escapeRegex).join('|')
  const lines = [
    '',
    '# Real .gz downloads (e.g. *.tar.gz) are application/gzip without a Content-Encoding.',
    'RemoveEncoding .gz .tgz .br .zst',
    'AddType application/gzip .gz .tgz',
  ]
  if (byType.size === 0) return lines
  lines.push('', '# A sidecar keeps the Content-Type of its original.')
  for (const [type, extensions] of byType) {
    lines.push(
      `<FilesMatch "(?i)\\.(?:${extensions.map(escapeRegex).join('|')})(?:\\.(?:br|gz|zst))?$">`,
      `    ForceType ${quote(type)}`,
      '</FilesMatch>',
    )
  }
  lines.push(
    '',
    '# Content-Encoding for sidecars only; never compressed again on the fly; one Vary on every',
    '# response of these types, the original included.',
    `<FilesMatch "(?i)\\.(?:${allExtensions})(?:\\.(?:br|gz|zst))?$">`,
    '    SetEnv no-gzip 1',
    '    SetEnv no-brotli 1',
    '    Header merge Vary Accept-Encoding',
    '</FilesMatch>',
  )
  for (const coding of ['br', 'zstd', 'gzip'] as const) {
    lines.push(
      `<FilesMatch "(?i)\\.(?:${allExtensions})\\${SUFFIX[coding]}$">`,
      `    AddEncoding ${coding} ${SUFFIX[coding]}`,
      '</FilesMatch>',
    )
  }
  const classOf = (cacheClass: string): string | undefined => model.manifest.files.find((f) => f.cacheClass === cacheClass)?.cacheControl
  lines.push(...apacheDictionaryFileRules(model.typeByExtension, { html: classOf('html') ?? DEFAULT_CACHE_CONTROL.html, immutable: classOf('immutable') ?? DEFAULT_CACHE_CONTROL.immutable }))
  return lines
}

function cacheRules(model: SiteModel): string[] {
  // FilesMatch sees only the base name: a name shared by files of different classes gets the
  // most cautious one (html < default < immutable).
  const byName = new Map<string, { cacheControl: string; rank: number }>()
  for (const [cacheControl, files] of model.byCacheControl) {
    for (const file of files) {
      const name = file.path.slice(file.path.lastIndexOf('/') + 1)
      const rank = RANK[file.cacheClass] ?? 1
      const previous = byName.get(name)
      if (!previous || rank < previous.rank) byName.set(name, { cacheControl, rank })
    }
  }
  const groups = new Map<string, string[]>()
  for (const [name, { cacheControl }] of byName) groups.set(cacheControl, [...(groups.get(cacheControl) ?? []), name])
  const lines = ['', '# Cache-Control by class, from the manifest (the sidecars share their original\'s).']
  for (const [cacheControl, names] of groups) {
    for (let i = 0; i < names.length; i += NAMES_PER_PATTERN) {
      const chunk = names.slice(i, i + NAMES_PER_PATTERN).map(escapeRegex).join('|')
      lines.push(`<FilesMatch "^(?:${chunk})(?:\\.(?:br|gz|zst))?$">`, `    Header set Cache-Control ${quote(cacheControl)}`, '</FilesMatch>')
    }
  }
  lines.push('', 'Header always set X-Content-Type-Options nosniff')
  return lines
}
