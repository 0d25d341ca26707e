/**
 * nginx: a file for the `http {}` context (e.g. `/etc/nginx/conf.d/site.conf`) holding the
 * `map`s that parse Accept-Encoding and one `server {}` block. Maps are only allowed in the
 * http context, which is why this is a whole server block rather than a snippet.
 *
 * How a request is served:
 * - `map`s turn Accept-Encoding into "acceptable" flags per coding with the regexes of
 *   `accept-regex.ts` (q-values, whole tokens, `x-gzip`, `*`), then, with the file's variant
 *   order (smallest first, from the manifest), into the suffix(es) `try_files` tries. The usual
 *   headers (plain token lists such as `gzip, deflate, br, zstd`) are exact keys of
 *   `$preencode_ae`, so they skip those regexes (see docs/servers/nginx.md, Speed).
 * - One regex `location` per original Content-Type (`types {}` + `default_type`, repeated in its
 *   named location), so a `.br` sidecar keeps the original's type.
 * - `add_header` values come from `volatile` maps: Content-Encoding over the final `$uri` (the
 *   file actually sent), Vary and Cache-Control over `$preencode_url` (`set` to the requested
 *   URL before try_files); `gzip off` prevents double compression.
 * - ETag and Last-Modified are nginx's own (mtime + size of the file sent): variants are
 *   strictly smaller than the original and variants of equal size are dropped from the order
 *   (site-model.ts), so every representation has its own ETag and nginx's If-None-Match,
 *   If-Range and Range handling is per representation.
 * - flavor `stock`: the type's location opens the first acceptable variant (or the original)
 *   directly with `alias`; a miss (variant not on disk, file not in the manifest, no original)
 *   goes by `error_page 404` to a named location with `try_files` over the three slots.
 * - flavor `modules`: `brotli_static`/`gzip_static` serve br and gzip when the client names
 *   them plainly, with no try_files before them; a request with a slot (zstd, `x-gzip`, `*`,
 *   Range, files whose gzip beats br) goes by `return 418` to a named location with try_files.
 * - `keepOriginals: false`: a named location with `gzip_static always; gunzip on;` decodes
 *   the gzip variant for clients that take no gzip.
 */
import { DEFAULT_CACHE_CONTROL, type Manifest } from '@preencode/core'
import { nginxDictionaryLocation, nginxDictionaryMaps, nginxDictionaryRewrite, nginxUseAsDictionaryHeader, type NginxDictionaryOptions } from './dictionary-nginx.js'
import { acceptPattern, refusePattern } from './accept-regex.js'
import type { Encoding } from './negotiate.js'
import { resolveNginxOptions, type NginxConfigOptions } from './options.js'
import {
  LETTER, SUFFIX, escapeRegex, generatedHeader, orderKey, siteModel, type SiteModel,
} from './site-model.js'

export type { NginxConfigOptions } from './options.js'

const ENCODINGS: readonly Encoding[] = ['br', 'zstd', 'gzip']
/** The longest key a default 64-byte `map_hash_bucket_size` holds: 8 + align8(len + 2) <= 56. */
const MAX_HASHED_KEY = 46

/** Generates the nginx config (http context: maps + one server block). Pure. */
export function nginxConfig(manifest: Manifest, options: NginxConfigOptions): string {
  const resolved = resolveNginxOptions(options)
  const model = siteModel(manifest)
  const modules = resolved.flavor === 'modules'
  const out: string[] = [
    generatedHeader('#', manifest),
    `# nginx ${resolved.flavor} flavour. Include from the http {} context; needs nginx >= 1.11.7 (map volatile).`,
    ...(modules ? ['# Needs in the main context: load_module modules/ngx_http_brotli_static_module.so;'] : []),
    ...(model.withoutOriginal.length > 0 ? ['# keepOriginals: false — needs the gzip_static and gunzip modules (built into Debian\'s nginx).'] : []),
    '',
  ]
  out.push(...acceptMaps(modules))
  out.push(...uriMaps(model, modules))
  out.push(...slotMaps(model, modules))
  out.push(...nginxDictionaryMaps(dictionaryOptions(model)))
  out.push(...serverBlock(model, resolved, modules))
  const text = `${out.join('\n')}\n`
  // Written with the default prefix; a custom one renames every variable and named location.
  return resolved.prefix === 'preencode' ? text : text.replace(/([$@])preencode_/g, `$1${resolved.prefix}_`)
}

function dictionaryOptions(model: SiteModel): NginxDictionaryOptions {
  const classOf = (cacheClass: string): string | undefined => model.manifest.files.find((f) => f.cacheClass === cacheClass)?.cacheControl
  return {
    prefix: 'preencode',
    types: model.typeByExtension,
    cacheControl: { html: classOf('html') ?? DEFAULT_CACHE_CONTROL.html, immutable: classOf('immutable') ?? DEFAULT_CACHE_CONTROL.immutable },
  }
}

function q(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`
}

function acceptMaps(modules: boolean): string[] {
  const lines = ['# Accept-Encoding, per RFC 9110 §12.5.3: "" = not named, 0 = refused (q=0), 1 = accepted.']
  const names: [Encoding | '*', string][] = [['br', 'br'], ['zstd', 'zstd'], ['gzip', 'gzip'], ['*', 'star']]
  for (const [coding, name] of names) {
    lines.push(
      `map $http_accept_encoding $preencode_ae_${name} {`,
      '    default "";',
      `    ${q(`~*${refusePattern(coding)}`)} 0;`,
      `    ${q(`~*${acceptPattern(coding)}`)} 1;`,
      '}',
    )
  }
  for (const [coding, name] of names.slice(0, 3)) {
    // Named and accepted, or not named while `*` is accepted.
    lines.push(
      `map "$preencode_ae_${name}:$preencode_ae_star" $preencode_ok_${LETTER[coding as Encoding]} {`,
      '    default 0;',
      '    "~^1:" 1;',
      '    ":1" 1;',
      '}',
    )
  }
  if (modules) {
    // What nginx's own gzip_static sees: the plain `gzip` token (it knows neither x-gzip nor `*`).
    lines.push(
      'map $http_accept_encoding $preencode_ae_gzip_plain {',
      '    default 0;',
      `    ${q(`~*${refusePattern('gzip').replace('(?:x-)?gzip', 'gzip')}`)} 0;`,
      `    ${q(`~*${acceptPattern('gzip').replace('(?:x-)?gzip', 'gzip')}`)} 1;`,
      '}',
      'map $http_range $preencode_range {',
      '    default 1;',
      '    "" 0;',
      '}',
    )
  }
  // The fast path: the plain lists browsers send are exact (hashed, case-insensitive) keys, so
  // the usual request runs no regex; any other value falls through to the regex maps above,
  // which a map only evaluates when its default is taken.
  const slow = modules
    ? '"$preencode_ok_b$preencode_ok_z$preencode_ok_g:$preencode_ae_br:$preencode_ae_gzip_plain"'
    : '"$preencode_ok_b$preencode_ok_z$preencode_ok_g"'
  lines.push(
    `# Accept-Encoding as one code: ok_b ok_z ok_g${modules ? ':ae_br:ae_gzip_plain' : ''} (the maps above), looked up`,
    '# directly for lists of plain tokens without q-values.',
    'map $http_accept_encoding $preencode_ae {',
    `    default ${slow};`,
    ...plainAcceptLists().map(({ key, br, zstd, gzip }) => `    ${q(key)} ${q(aeCode(modules, br, zstd, gzip))};`),
    '}',
    '',
  )
  return lines
}

/** The tokens of the fast path: what browsers and common HTTP clients list. */
const PLAIN_TOKENS = ['gzip', 'deflate', 'br', 'zstd'] as const

/**
 * Every list of distinct PLAIN_TOKENS (any order, `", "` or `","` between them): all named with
 * no q-value, so all accepted, and no `*`.
 */
export function plainAcceptLists(): { key: string; br: boolean; zstd: boolean; gzip: boolean }[] {
  const lists: string[][] = []
  const grow = (list: string[]): void => {
    if (list.length > 0) lists.push(list)
    for (const token of PLAIN_TOKENS) if (!list.includes(token)) grow([...list, token])
  }
  grow([])
  return lists.flatMap((list) => [', ', ','].filter((sep, i) => i === 0 || list.length > 1).map((sep) => ({
    key: list.join(sep), br: list.includes('br'), zstd: list.includes('zstd'), gzip: list.includes('gzip'),
  })))
}

/** The `$preencode_ae` value for a header naming these codings plainly (no q, no `*`, no x-gzip). */
function aeCode(modules: boolean, br: boolean, zstd: boolean, gzip: boolean): string {
  const ok = `${+br}${+zstd}${+gzip}`
  return modules ? `${ok}:${br ? '1' : ''}:${+gzip}` : ok
}

/**
 * A `map` over URLs. Keys longer than fit nginx's default `map_hash_bucket_size` (one CPU cache
 * line, 64 bytes: 46-byte keys) become anchored regex entries, which need no bucket; changing
 * the bucket size instead would fail when any `map` precedes this file (nginx: "is duplicate").
 */
function mapBlock(name: string, source: string, entries: [string, string][], defaultValue = '""'): string[] {
  const hashed = entries.filter(([key]) => Buffer.byteLength(key) <= MAX_HASHED_KEY)
  const long = entries.filter(([key]) => Buffer.byteLength(key) > MAX_HASHED_KEY)
  return [
    `map ${source} ${name} {`,
    '    volatile;',
    `    default ${defaultValue};`,
    ...hashed.map(([key, value]) => `    ${q(key)} ${value};`),
    ...long.map(([key, value]) => `    ${q(`~^${escapeRegex(key)}$`)} ${value};`),
    '}',
  ]
}

function uriMaps(model: SiteModel, modules: boolean): string[] {
  const order: [string, string][] = []
  const vary: [string, string][] = []
  const orderOf = new Map<string, string>()
  for (const f of model.withVariants) {
    // The slot(s) are decided from the order alone (modules: a br the file lacks would leave it
    // to brotli_static, which finds nothing; stock: the first slot is opened directly, and a
    // miss costs a second pass through try_files), so every file with fewer variants gets one.
    orderOf.set(f.url, orderKey(f.order))
    if (modules && orderKey(model.defaultOrder) !== orderKey(f.order)) order.push([f.url, orderKey(f.order)])
    vary.push([f.url, 'Accept-Encoding'])
  }
  if (!modules) {
    // Stock: every listed file (those without variants have none to look for), so a listed
    // file is always a hashed hit; the default is for files not in the manifest.
    for (const file of model.manifest.files) {
      const url = `/${file.path}`
      if (file.path !== model.manifestFilename) order.push([url, orderOf.get(url) || '""'])
    }
  }
  const cache: [string, string][] = []
  for (const [value, files] of model.byCacheControl) {
    for (const file of files) cache.push([`/${file.path}`, q(value)])
  }
  return [
    `# Variant order per URL (b = br, z = zstd, g = gzip), smallest first; default ${orderKey(model.defaultOrder)}.`,
    ...mapBlock('$preencode_order', '$uri', order, orderKey(model.defaultOrder)),
    '# Content-Encoding of the file actually sent; only used in the locations of compressed types,',
    '# where a name ending in a sidecar suffix is always a sidecar. One regex (the usual request',
    '# in the modules flavour ends in no suffix and fails it once), then a hashed lookup.',
    'map $uri $preencode_suffix {',
    '    volatile;',
    '    default "";',
    `    "~\\.(${ENCODINGS.map((e) => SUFFIX[e].slice(1)).join('|')})$" $1;`,
    '}',
    'map $preencode_suffix $preencode_ce {',
    '    volatile;',
    '    default "";',
    ...ENCODINGS.map((e) => `    ${SUFFIX[e].slice(1)} ${e};`),
    '}',
    ...(modules ? [] : [
      '# Content-Encoding of the first slot, which the stock fast path opens directly.',
      'map $preencode_s1 $preencode_ce1 {',
      '    volatile;',
      '    default "";',
      ...ENCODINGS.map((e) => `    ${SUFFIX[e]} ${e};`),
      '}',
    ]),
    '# Vary on every response of a URL that has variants, the original included. $preencode_url is',
    '# the URL as requested (set in each location before try_files changes $uri to a sidecar).',
    ...mapBlock('$preencode_vary', '$preencode_url', vary),
    '# Cache-Control by class, from the manifest.',
    ...mapBlock('$preencode_cc', '$preencode_url', cache),
    '',
  ]
}

/** Every order string the site uses, plus the default. */
function ordersInUse(model: SiteModel): string[] {
  const orders = new Set([orderKey(model.defaultOrder)])
  for (const f of model.withVariants) orders.add(orderKey(f.order))
  return [...orders]
}

function decode(order: string): Encoding[] {
  return [...order].map((c) => ENCODINGS.find((e) => LETTER[e] === c)!)
}

function flagCombos(): { b: boolean; z: boolean; g: boolean; key: string }[] {
  const combos = []
  for (let i = 0; i < 8; i++) {
    const b = (i & 4) !== 0, z = (i & 2) !== 0, g = (i & 1) !== 0
    combos.push({ b, z, g, key: `${+b}${+z}${+g}` })
  }
  return combos
}

function slotMaps(model: SiteModel, modules: boolean): string[] {
  const orders = ordersInUse(model)
  if (!modules) {
    // Stock: the acceptable codings in the file's order, packed into three slots; an empty slot
    // makes try_files fall back to the original at that point, which is right because no
    // acceptable coding is left after it.
    const slots: [string, string][][] = [[], [], []]
    for (const order of orders) {
      for (const combo of flagCombos()) {
        const ok = { br: combo.b, zstd: combo.z, gzip: combo.g }
        const accepted = decode(order).filter((e) => ok[e])
        accepted.forEach((e, i) => slots[i]!.push([`${order}:${combo.key}`, SUFFIX[e]]))
      }
    }
    const source = '"$preencode_order:$preencode_ae"'
    return [
      '# Suffixes try_files tries, best first.',
      ...slots.flatMap((entries, i) => mapBlock(`$preencode_s${i + 1}`, source, entries)),
      '',
    ]
  }
  // Modules: one slot. Empty when brotli_static/gzip_static will pick the same coding as we
  // would (br/gzip named plainly); a suffix when only try_files can: zstd, x-gzip or `*`, or
  // gzip smaller than br, or br refused while the module would still see a br token.
  const entries: [string, string][] = []
  for (const order of orders) {
    const codings = decode(order)
    for (const combo of flagCombos()) {
      for (const aeBr of ['', '0', '1'] as const) {
        for (const plainGzip of [false, true]) {
          for (const range of [false, true]) {
            const slot = modulesSlot(codings, combo, aeBr, plainGzip, range)
            if (slot) entries.push([`${order}:${combo.key}:${aeBr}:${+plainGzip}:${+range}`, slot])
          }
        }
      }
    }
  }
  return [
    '# The suffix try_files adds before the modules see the request ("" = leave it to them).',
    ...mapBlock('$preencode_slot', '"$preencode_order:$preencode_ae:$preencode_range"', entries),
    '',
  ]
}

/**
 * The suffix try_files must add in the modules flavour, or '' to leave the request to
 * brotli_static/gzip_static: they pick br, then gzip, by their own parsing of the plain tokens.
 */
function modulesSlot(
  codings: readonly Encoding[],
  ok: { b: boolean; z: boolean; g: boolean },
  aeBr: '' | '0' | '1',
  plainGzip: boolean,
  range: boolean,
): string {
  const first = codings.find((e) => ok[LETTER[e]])
  if (first === undefined) return ''
  // Neither module allows byte ranges (nginx 1.22): a Range request goes through try_files.
  if (range || first === 'zstd') return SUFFIX[first]
  if (first === 'br') return aeBr === '1' ? '' : SUFFIX.br // `*` only: brotli_static does not know it
  // gzip first: gzip_static only if it sees a plain `gzip` token and brotli_static won't step in.
  const brotliStaticMayAnswer = codings.includes('br') && aeBr !== ''
  return plainGzip && !brotliStaticMayAnswer ? '' : SUFFIX.gzip
}

function serverBlock(model: SiteModel, options: ReturnType<typeof resolveNginxOptions>, modules: boolean): string[] {
  // The URL before try_files: what the Vary and Cache-Control maps are keyed by.
  const setUrl = 'set $preencode_url $uri;'
  const headers = [
    'add_header Content-Encoding $preencode_ce;',
    'add_header Vary $preencode_vary;',
    'add_header Cache-Control $preencode_cc;',
    'add_header X-Content-Type-Options nosniff always;',
    nginxUseAsDictionaryHeader('preencode'),
  ]
  const noOriginals = model.withoutOriginal.length > 0
  const compression = modules
    ? ['gzip off;', 'gzip_vary off;', 'gzip_proxied any;', 'gzip_http_version 1.0;', 'gzip_static on;', 'brotli_static on;']
    : ['gzip off;']
  const lines = [
    'server {',
    `    listen ${options.listen};`,
    `    server_name ${options.serverName};`,
    ...options.serverDirectives.map((d) => `    ${d};`),
    `    root ${q(options.root)};`,
    '    index index.html;',
    '',
    '    # The manifest is for deploy and configs only.',
    `    location = /${model.manifestFilename} { return 404; }`,
    '',
    ...nginxDictionaryRewrite(dictionaryOptions(model)).map((l) => `    ${l}`),
    '',
    ...nginxDictionaryLocation(dictionaryOptions(model)).map((l) => `    ${l}`),
    '',
  ]
  // Group extensions by Content-Type: one location each.
  const byType = new Map<string, string[]>()
  for (const [extension, type] of model.typeByExtension) {
    const list = byType.get(type) ?? []
    list.push(extension)
    byType.set(type, list)
  }
  let index = 0
  for (const [type, extensions] of byType) {
    const pattern = `\\.(?:${extensions.map(escapeRegex).join('|')})$`
    const fallback = noOriginals ? `@preencode_decode_${index}` : '=404'
    const tries = modules
      ? `try_files $uri$preencode_slot $uri ${fallback};`
      : `try_files $uri$preencode_s1 $uri$preencode_s2 $uri$preencode_s3 $uri ${fallback};`
    const typeLines = ['types { }', `default_type ${q(type)};`]
    // The fast path: what the type's location does before (or instead of) try_files.
    const fastPath = modules
      ? [
          // The usual request (empty slot: br or gzip named plainly, no Range) is left to
          // brotli_static/gzip_static with no try_files (whose stat of the original would come
          // first) and no Content-Encoding header of ours (the modules set it); only a request
          // with a slot goes to the named location with try_files (docs/servers/nginx.md, Speed).
          `error_page 418 = @preencode_try_${index};`,
          'if ($preencode_slot) { return 418; }',
          // keepOriginals: false: no original to fall back to when the modules decline.
          ...(noOriginals ? [`error_page 404 = ${fallback};`] : []),
        ]
      : [
          // The first acceptable variant (or the original) is opened directly with `alias`, with
          // no try_files stat before it; a file that is not there (a variant missing on disk, a
          // file not in the manifest, keepOriginals: false) goes to the named location.
          `error_page 404 = @preencode_try_${index};`,
          `alias ${q(`${options.root.replace(/\/+$/, '')}$uri$preencode_s1`)};`,
          'add_header Content-Encoding $preencode_ce1;',
        ]
    lines.push(
      `    # ${extensions.join(', ')}: sidecars keep this type.`,
      `    location ~* ${q(pattern)} {`,
      ...[...typeLines, ...compression, setUrl, ...fastPath, ...headers.slice(1)].map((l) => `        ${l}`),
      '    }',
      `    location @preencode_try_${index} {`,
      ...[...typeLines, ...compression, setUrl, tries, ...headers].map((l) => `        ${l}`),
      '    }',
    )
    if (noOriginals) {
      lines.push(
        '    # keepOriginals: false — the original is not on disk: send the gzip variant, decoded for clients without gzip.',
        `    location @preencode_decode_${index} {`,
        ...[...typeLines, 'gzip off;', 'gzip_vary off;', 'gzip_proxied any;', 'gzip_http_version 1.0;', ...(modules ? ['brotli_static on;'] : []), 'gzip_static always;', 'gunzip on;', setUrl, ...headers].map((l) => `        ${l}`),
        '    }',
      )
    }
    index++
  }
  if (model.manifest.files.some((f) => /\.(?:gz|tgz)$/i.test(f.path))) {
    lines.push(
      '    # Real .gz downloads: their own type, never a Content-Encoding.',
      '    location ~* "\\.t?gz$" {',
      '        types { application/gzip gz tgz; }',
      '        gzip off;',
      '        set $preencode_url $uri;',
      '        add_header Cache-Control $preencode_cc;',
      '        add_header X-Content-Type-Options nosniff always;',
      '    }',
    )
  }
  lines.push(
    '    location / {',
    '        # Directory URLs go to their index.html explicitly, so it gets its variants (and works',
    '        # when only the variants are on disk).',
    '        rewrite ^(.*/)$ $1index.html last;',
    '        set $preencode_url $uri;',
    '        try_files $uri $uri/ =404;',
    '        add_header Cache-Control $preencode_cc;',
    '        add_header X-Content-Type-Options nosniff always;',
    '    }',
    '}',
  )
  return lines
}
