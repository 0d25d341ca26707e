/**
 * nginx: a file for the `http {}` context (e.g. `/etc/nginx/conf.d/site.conf`) holding the
 * `map`s that parse Accept-Encoding and one `server {}` block. Generated from options only
 * (codings, keepOriginals, cache classes, the compressible types), so it is committed once and
 * survives every deploy without a reload; existence is checked by nginx itself.
 *
 * How a request is served:
 * - `map`s turn Accept-Encoding into acceptable-flags and the suffixes to try (accept-maps.ts).
 * - One regex `location` for every compressible extension (locations.ts): `types {}` gives a
 *   sidecar its original's Content-Type; the flavour answers the usual request (stock.ts:
 *   `alias` straight to the first acceptable variant; modules.ts: brotli_static/gzip_static);
 *   a miss walks the next acceptable codings in the fixed order, then the original.
 * - Vary on every response of a compressible type; Cache-Control by class (HTML, content-hashed
 *   names, the rest): HTML pages and content-hashed versioned assets have locations of their own
 *   that know it, every other URL takes a regex `map`; `gzip off` there.
 * - ETag and Last-Modified are nginx's own (mtime + size of the file sent): variants are
 *   smaller than the original, and a variant as large as another has its mtime moved by whole
 *   seconds at write time (core run/file-job.ts), so each representation has its own ETag.
 */
import { type Manifest, userError } from '@preencode/core'
import { DOTFILE_URL_PCRE } from '../http/dotfiles.js'
import { type NginxConfigOptions, type ResolvedNginxOptions, resolveNginxOptions } from '../shared/options.js'
import { hashedNamePattern, resolveServingPolicy, type ServingPolicy } from '../shared/policy.js'
import { acceptMaps, stageMaps } from './accept-maps.js'
import { conventionLocations, conventionMaps, fallbackTarget, notFoundErrorPage } from './conventions.js'
import {
  type NginxDictionaryOptions,
  nginxDeltaCheckLocation,
  nginxDictionaryLocation,
  nginxDictionaryMaps,
  nginxDictionaryRewrite,
} from './dictionary.js'
import { compressibleLocation } from './locations.js'
import { modulesEntry, modulesMaps } from './modules.js'
import { type NginxNames, nginxNames, nginxString as q } from './names.js'
import { stockEntry } from './stock.js'

export type { NginxConfigOptions } from '../shared/options.js'

/** Generates the nginx config (http context: maps + one server block). Pure. */
export function nginxConfig(manifest: Manifest, options: NginxConfigOptions): string {
  const parts = nginxParts(manifest, options)
  const { resolved } = parts
  if (resolved.form === 'include')
    throw userError(
      'server-config',
      "nginx `form: 'include'` is two files (http level and server level): use nginxIncludeFiles(), or `preencode config nginx <dir> --form include --out <folder>`.",
    )
  const out: string[] = [
    ...parts.head,
    `# nginx ${resolved.flavor} flavour. Include from the http {} context; needs nginx >= 1.11.7.`,
    ...parts.notes,
    '',
    ...parts.maps,
    '',
    'server {',
    `    listen ${resolved.listen};`,
    `    server_name ${resolved.serverName};`,
    ...resolved.serverDirectives.map((d) => `    ${d};`),
    `    root ${q(resolved.root)};`,
    '    index index.html;',
    ...indent(parts.errorPage),
    '',
    ...indent(parts.dotfileLocation),
    '',
    ...indent(parts.serverRewrite),
    '',
    ...indent(parts.locations),
    ...indent(parts.rootLocation),
    '',
    ...indent(parts.namedLocations),
    '}',
  ]
  return `${out.join('\n')}\n`
}

/** The pieces both forms (standalone here, include in include.ts) are made of. */
export interface NginxParts {
  resolved: ResolvedNginxOptions
  /** The generated-by line. */
  head: string[]
  /** What the main context needs (modules, pcre_jit, keepOriginals: false). */
  notes: string[]
  /** http context: every `map`. */
  maps: string[]
  /** The location that hides dotfiles (the manifest, the deploy state, .env, temp files). */
  dotfileLocation: string[]
  /** server context, rewrite phase: the RFC 9842 gate. */
  serverRewrite: string[]
  /** Every other location but `location /`. */
  locations: string[]
  /** `location /`: directory URLs and every other file. */
  rootLocation: string[]
  /** The body of `location /` alone (the include form nests the other locations in it). */
  rootBody: string[]
  /** Server level: the clean-URL / SPA fallback and the 404 page (conventions.ts). */
  namedLocations: string[]
  /** The `error_page` to the 404 page: at server level (standalone), or in `location /` (include). */
  errorPage: string[]
}

export function nginxParts(manifest: Manifest, options: NginxConfigOptions): NginxParts {
  const resolved = resolveNginxOptions(options)
  const policy = resolveServingPolicy(manifest, options)
  const modules = resolved.flavor === 'modules'
  const n = nginxNames(resolved.prefix)
  const root = resolved.root.replace(/\/+$/, '')
  const dictionary = dictionaryOptions(resolved.prefix, policy)
  const rootBody = rootLocationBody(n, fallbackTarget(n, policy))
  return {
    resolved,
    head: [
      `# generated by preencode — do not edit (from ${policy.generator}; regenerate with \`preencode config\` only when options change)`,
    ],
    notes: [
      ...(modules ? ['# Needs in the main context: load_module modules/ngx_http_brotli_static_module.so;'] : []),
      '# Recommended in the main context (nginx.conf, outside http {}): pcre_jit on; (compiles the regexes',
      '# below: measured 12-26% fewer CPU instructions per request, docs/servers/nginx.md, Speed).',
      ...(policy.keepOriginals
        ? []
        : ["# keepOriginals: false — needs the gzip_static and gunzip modules (built into Debian's nginx)."]),
    ],
    maps: [
      ...acceptMaps(n, modules),
      ...stageMaps(n, policy, modules),
      ...(modules ? modulesMaps(n, policy) : []),
      ...cacheControlMap(n, policy),
      ...nginxDictionaryMaps(dictionary),
      ...conventionMaps(n, policy),
    ],
    serverRewrite: nginxDictionaryRewrite(dictionary),
    dotfileLocation: [
      '# Dotfiles and dot-folders (the manifest, the deploy state, .env, temp files) are never served;',
      '# /.well-known/ is (RFC 8615). First among the regex locations, so none of them serves one.',
      `location ~ ${q(DOTFILE_URL_PCRE)} { return 404; }`,
    ],
    locations: [
      ...nginxDeltaCheckLocation(dictionary),
      '',
      ...compressibleLocation(n, policy, root, modules ? modulesEntry(n, policy) : stockEntry(n, policy, root)),
      '',
      ...nginxDictionaryLocation(dictionary),
      '',
      ...gzipLocation(n),
    ],
    rootLocation: ['', 'location / {', ...indent(rootBody), '}'],
    rootBody,
    namedLocations: conventionLocations(n, policy, root),
    errorPage: notFoundErrorPage(n, policy),
  }
}

export function indent(lines: string[], by = '    '): string[] {
  return lines.map((l) => (l ? `${by}${l}` : l))
}

/** What the RFC 9842 rules (dictionary.ts) need: the same types and cache values as the rest. */
function dictionaryOptions(prefix: string, policy: ServingPolicy): NginxDictionaryOptions {
  const types = new Map<string, string>()
  for (const [type, extensions] of policy.extensionsByType)
    for (const extension of extensions) types.set(extension, type)
  return {
    prefix,
    types,
    cacheControl: policy.cacheControl,
    gateOnClass: policy.immutablePattern !== hashedNamePattern(),
  }
}

function cacheControlMap(n: NginxNames, policy: ServingPolicy): string[] {
  return [
    '# Cache-Control by class, over the requested URL: HTML (and directory URLs), content-hashed names, the rest.',
    `map ${n.v('url')} ${n.v('cc')} {`,
    '    volatile;',
    `    default ${q(policy.cacheControl.default)};`,
    `    ${q(`~*${policy.htmlPattern}`)} ${q(policy.cacheControl.html)};`,
    `    ${q(`~${policy.immutablePattern}`)} ${q(policy.cacheControl.immutable)};`,
    '}',
    '',
  ]
}

function gzipLocation(n: NginxNames): string[] {
  return [
    '# Real .gz downloads: their own type, never a Content-Encoding.',
    'location ~* "\\.t?gz$" {',
    '    types { application/gzip gz tgz; }',
    '    gzip off;',
    `    set ${n.v('url')} $uri;`,
    `    add_header Cache-Control ${n.v('cc')};`,
    '    add_header X-Content-Type-Options nosniff always;',
    '}',
  ]
}

function rootLocationBody(n: NginxNames, fallback: string): string[] {
  return [
    '# Directory URLs go to their index.html explicitly, so it gets its variants (and works',
    '# when only the variants are on disk).',
    'rewrite ^(.*/)$ $1index.html last;',
    `set ${n.v('url')} $uri;`,
    '# A directory without its slash is redirected to it; anything else the site has no file for',
    '# goes to the static-host conventions (clean URLs, SPA; conventions.ts).',
    `try_files $uri $uri/ ${fallback};`,
    `add_header Cache-Control ${n.v('cc')};`,
    'add_header X-Content-Type-Options nosniff always;',
  ]
}
