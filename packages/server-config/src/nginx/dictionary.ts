// Named captures (dict_*, uad_*) are not prefixed: the generator renames `$preencode_…`
// variables for a custom prefix by text, and captures are per request anyway.
/**
 * nginx rules for Compression Dictionary Transport (RFC 9842; docs/dictionary-transport.md),
 * the same for both flavours and independent of the file list:
 *
 * - http level: `Available-Dictionary` is accepted only as exactly one sf-binary SHA-256
 *   (`AVAILABLE_DICTIONARY_PATTERN`); its base64 and the request path give the delta's path
 *   (`<uri>.dict/<base64><.ext>.dcb`, `deltaPath` in core); `dcb`/`dcz` must be named in
 *   Accept-Encoding with q > 0.
 * - server level (rewrite phase, before any location): only a request with such a header (and
 *   dcb/dcz accepted) is rewritten to one internal location, which tests whether the delta exists
 *   on disk (`-f`) and rewrites to it, or back to the requested URI. Every other request does no
 *   file-system work for these rules: the gate is a chain of `map`s whose first key is the raw
 *   header, so without it the rules cost one hash lookup, no regex and no `stat`.
 * - one regex location serves deltas (after the compressible ones: no compressible extension is
 *   `dcb`/`dcz`, so their order does not matter and the usual request tests it last): the
 *   original's Content-Type (by the extension kept in the delta's name), `Content-Encoding:
 *   dcb|dcz`, `Vary: Accept-Encoding, Available-Dictionary`, the original's Cache-Control class;
 *   nginx's static module gives Content-Length, ETag, Range and conditional requests per delta.
 * - `Use-As-Dictionary` on versioned assets, derived from the URL (`VERSIONED_ASSET_PATTERN`).
 *
 * nginx (1.22) passes only the first of repeated `Available-Dictionary` lines to `$http_…`: a
 * client that sends two gets a delta for the first one at most, never a file outside the delta set.
 */
import {
  ASSET_DICTIONARY_NAME_PATTERN,
  AVAILABLE_DICTIONARY_PATTERN,
  HASHED_NAME_RULE,
  PAGE_DICTIONARY_NAME_PATTERN,
} from '@preencode/core/internal'
import { acceptTokenPattern, refuseTokenPattern } from '../shared/accept-regex.js'
import { ASSET_USE_AS_DICTIONARY, escapeRegex, PAGE_USE_AS_DICTIONARY } from '../shared/dictionary.js'
import { HASH_TOKEN_PCRE } from '../shared/policy.js'

export interface NginxDictionaryOptions {
  /** Variable prefix (`preencode`). */
  prefix: string
  /** Extension (no dot, lowercase) -> Content-Type, for every compressible type. */
  types: ReadonlyMap<string, string>
  /** Cache-Control of deltas of HTML pages and of everything else (versioned assets). */
  cacheControl: { html: string; immutable: string }
  /**
   * A custom `immutable` rule decides the class: announce only URLs it puts in the immutable class
   * (the map then reads `$<prefix>_cc` too), so every announced response lives as long as its deltas.
   * With the default rule the hash in the pattern below is that rule already.
   */
  gateOnClass?: boolean
}

const q = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
const ID = AVAILABLE_DICTIONARY_PATTERN.slice(2, -2) // `([A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)` without `^:` and `:$`
/**
 * The hash of a versioned asset's name that gets Use-As-Dictionary: the content-hash rule of the
 * immutable class (core's `looksContentHashed`), so every URL announced as a dictionary is also
 * served fresh for a year (`DELTA_RETENTION_SECONDS`); a name like `lib-abcdefgh.js` is not
 * content-hashed by that rule (an hour), and is not announced.
 */
const HASH = HASH_TOKEN_PCRE
/** A versioned asset's basename (core's `HASHED_NAME_RULE.versionedAsset`), capturing `uad_s`, `uad_p`, `uad_x`. */
const basename = (hash: string, extensions: readonly string[] = HASHED_NAME_RULE.extensions): string =>
  `(?<uad_s>${HASHED_NAME_RULE.stem})(?<uad_p>${HASHED_NAME_RULE.separator})${hash}\\.(?<uad_x>${extensions.join('|')})`

/**
 * A location regex for the versioned assets whose name is also content-hashed by `hashToken`
 * (policy's HASH_TOKEN_PCRE): for them Use-As-Dictionary is `nginxUseAsDictionaryFromCaptures`
 * and Cache-Control is the immutable class, with no map. Its captures equal the map's: the
 * split is the first (shortest prefix) that leaves a hash before the extension, and every hash
 * this pattern takes the map's pattern takes too.
 */
export function nginxVersionedAssetPattern(hashToken: string, extensions: readonly string[]): string {
  return `/${basename(hashToken, extensions)}$`
}

/** The Use-As-Dictionary value from the captures of `basename` (the map's, and a location's matched by `nginxVersionedAssetPattern`). */
export const nginxUseAsDictionaryFromCaptures = `'match="$uad_s$uad_p*.$uad_x"'`

/** http-level maps. `url` is the variable holding the URL before try_files (`$<prefix>_url`). */
export function nginxDictionaryMaps(options: NginxDictionaryOptions): string[] {
  const p = options.prefix
  // `^<immutable Cache-Control>|…/`: only URLs of the immutable class (custom rules only).
  const gate = options.gateOnClass ? `^${escapeRegex(options.cacheControl.immutable)}\\|.*` : ''
  const lines = [
    '# RFC 9842 delta updates (docs/dictionary-transport.md). Available-Dictionary: exactly one',
    '# sf-binary SHA-256, else empty; its base64 only ever names a file under <uri>.dict/.',
    `map $http_available_dictionary $${p}_dict_id {`,
    '    default "";',
    // No header (the usual request): an exact key, so no regex runs.
    '    "" "";',
    `    ${q(`~^:${ID.replace('(', '(?<dict_id>')}:$`)} $dict_id;`,
    '}',
    '# 1 when the request may have a delta: a valid id, dcb or dcz accepted, and not one of our',
    '# internal URIs (a stage reached by error_page runs the server rewrite phase again). Volatile,',
    '# as $uri changes; each next map is only evaluated when the one before found something.',
    `map $http_available_dictionary $${p}_dict_try {`,
    '    volatile;',
    '    "" "";',
    `    default $${p}_dict_try_id;`,
    '}',
    `map $${p}_dict_id $${p}_dict_try_id {`,
    '    volatile;',
    '    "" "";',
    `    default $${p}_dict_try_uri;`,
    '}',
    `map "$${p}_ae_dcb$${p}_ae_dcz|$uri" $${p}_dict_try_uri {`,
    '    volatile;',
    '    default 1;',
    `    ${q('~^00\\|')} "";`,
    `    ${q(`~^..\\|/\\.${p}/`)} "";`,
    '}',
  ]
  for (const coding of ['dcb', 'dcz']) {
    lines.push(
      `map $http_accept_encoding $${p}_ae_${coding} {`,
      '    default 0;',
      `    ${q(`~*${refuseTokenPattern(coding)}`)} 0;`,
      `    ${q(`~*${acceptTokenPattern(coding)}`)} 1;`,
      '}',
      // The delta's path from the requested path (saved by the gate) and the id; a directory URL means its index.html.
      `map "$${p}_dict_uri|$${p}_dict_id|$${p}_ae_${coding}" $${p}_${coding}_path {`,
      '    default "";',
      `    ${q(`~^(?<dict_u>/(?:[^|]*/)?)\\|(?<dict_i>[^|]+)\\|1$`)} "\${dict_u}index.html.dict/\${dict_i}.html.${coding}";`,
      `    ${q(`~^(?<dict_u>/[^|]*?(?<dict_e>\\.[A-Za-z0-9]+)?)\\|(?<dict_i>[^|]+)\\|1$`)} "\${dict_u}.dict/\${dict_i}\${dict_e}.${coding}";`,
      '}',
    )
  }
  lines.push(
    `map $uri $${p}_delta_ce {`,
    '    default "";',
    `    "~\\.(?<dict_c>dc[bz])$" $dict_c;`,
    '}',
    `map $uri $${p}_delta_cc {`,
    `    default ${q(options.cacheControl.immutable)};`,
    `    "~*\\.html?\\.dc[bz]$" ${q(options.cacheControl.html)};`,
    '}',
    '# Use-As-Dictionary on versioned assets: their name with the hash as `*`, relative.',
    `map ${gate ? `"$${p}_cc|$${p}_url"` : `$${p}_url`} $${p}_use_as_dictionary {`,
    '    volatile;',
    '    default "";',
    `    ${q(`~${gate}/${basename(HASH)}$`)} ${nginxUseAsDictionaryFromCaptures};`,
    // The shared page dictionary (linked from every page): for every page navigation.
    `    ${q(`~${gate}/${PAGE_DICTIONARY_NAME_PATTERN}$`)} '${PAGE_USE_AS_DICTIONARY}';`,
    // The asset dictionary (linked from every page): for scripts and styles with a new name.
    `    ${q(`~${gate}/${ASSET_DICTIONARY_NAME_PATTERN}$`)} '${ASSET_USE_AS_DICTIONARY}';`,
    '}',
    // A delta's response announces the new version too: it is the next update's dictionary. Its own
    // map, used only by the delta location, so other responses never run this regex.
    `map $${p}_url $${p}_delta_use_as_dictionary {`,
    '    volatile;',
    '    default "";',
    `    ${q(`~/${basename(HASH)}\\.dict/[A-Za-z0-9+/=]+\\.[A-Za-z0-9]+\\.dc[bz]$`)} ${nginxUseAsDictionaryFromCaptures};`,
    '}',
  )
  return lines
}

/** Server-level gate: only a request that may have a delta goes to the location of `nginxDeltaCheckLocation`. */
export function nginxDictionaryRewrite(options: NginxDictionaryOptions): string[] {
  const p = options.prefix
  return [
    '# RFC 9842: a request with a valid Available-Dictionary (and dcb or dcz accepted) looks for its',
    '# delta; any other request goes on with no file-system work for it.',
    `if ($${p}_dict_try) { set $${p}_dict_uri $uri; rewrite ^ ${deltaCheckUri(p)} last; }`,
  ]
}

/** Internal URI of the location that looks for the delta. */
function deltaCheckUri(prefix: string): string {
  return `/.${prefix}/delta`
}

/**
 * The delta if it exists (dcb preferred, then dcz), else the requested URI again (a rewrite in a
 * location does not run the server-level gate again).
 */
export function nginxDeltaCheckLocation(options: NginxDictionaryOptions): string[] {
  const p = options.prefix
  return [
    `location = ${deltaCheckUri(p)} {`,
    '    internal;',
    `    set $${p}_delta $${p}_dict_uri;`,
    `    if (-f $document_root$${p}_dcz_path) { set $${p}_delta $${p}_dcz_path; }`,
    `    if (-f $document_root$${p}_dcb_path) { set $${p}_delta $${p}_dcb_path; }`,
    `    rewrite ^ $${p}_delta last;`,
    '}',
  ]
}

/** A delta's URL (core's deltaPath): no file a user names by hand has this shape. */
const DELTA_URL_PCRE = '(\\.[A-Za-z0-9]+)\\.dict/[A-Za-z0-9+/]+=\\1\\.dc[bz]$'

/** The location serving deltas, one nested location per Content-Type. */
export function nginxDictionaryLocation(options: NginxDictionaryOptions): string[] {
  const p = options.prefix
  const byType = new Map<string, string[]>()
  for (const [extension, type] of options.types) byType.set(type, [...(byType.get(type) ?? []), extension])
  const lines = [
    // Only the exact shape of core's deltaPath: `<file.ext>.dict/<base64 id, ending =>.ext.dcb|dcz`,
    // the original's extension repeated. A user's own `my.dict/` folder is a folder like any other.
    `location ~ ${q(DELTA_URL_PCRE)} {`,
    '    gzip off;',
    `    set $${p}_url $uri;`,
    `    add_header Content-Encoding $${p}_delta_ce;`,
    '    add_header Vary "Accept-Encoding, Available-Dictionary";',
    `    add_header Cache-Control $${p}_delta_cc;`,
    '    add_header X-Content-Type-Options nosniff always;',
    `    add_header Use-As-Dictionary $${p}_delta_use_as_dictionary;`,
  ]
  for (const [type, extensions] of byType) {
    lines.push(
      `    location ~* ${q(`\\.(?:${extensions.map(escapeRegex).join('|')})\\.dc[bz]$`)} {`,
      '        types { }',
      `        default_type ${q(type)};`,
      // Rewrite-module directives are not inherited by nested locations: set it here.
      `        set $${p}_url $uri;`,
      '    }',
    )
  }
  lines.push('}')
  return lines
}

/** The header line each location of an asset type adds (the delta location has its own): the map's value by default. */
export function nginxUseAsDictionaryHeader(prefix: string, value = `$${prefix}_use_as_dictionary`): string {
  return `add_header Use-As-Dictionary ${value};`
}
