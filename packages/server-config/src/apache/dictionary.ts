/**
 * Apache 2.4 rules for Compression Dictionary Transport (RFC 9842; docs/dictionary-transport.md),
 * for `.htaccess` (per-directory) and vhost (server) context, independent of the file list:
 *
 * - `PE_AE_DCB`/`PE_AE_DCZ` from Accept-Encoding (whole tokens, q=0 refuses), like the others;
 * - a rewrite to `<file>.dict/<base64><.ext>.dcb` (then `.dcz`) only when `Available-Dictionary`
 *   is exactly one sf-binary SHA-256 (`AVAILABLE_DICTIONARY_PATTERN`, anchored; Apache joins
 *   repeated header lines with commas, which fails it) and that file exists (`-f`);
 * - deltas keep their original's Content-Type (by the extension kept in their name), get
 *   `Content-Encoding: dcb|dcz` (`AddEncoding` scoped to delta names), `Vary: Accept-Encoding,
 *   Available-Dictionary`, their class's Cache-Control, and no on-the-fly compression;
 * - `Use-As-Dictionary` on versioned assets from their URL (`VERSIONED_ASSET_PATTERN`), through
 *   an environment variable that survives the internal redirect to a sidecar (`REDIRECT_` prefix).
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
import { fileTarget } from './file-target.js'

export type ApacheDictionaryContext = { kind: 'dir' } | { kind: 'server'; root: string }

const CODINGS = ['dcb', 'dcz'] as const
const ENV = { dcb: 'PE_AE_DCB', dcz: 'PE_AE_DCZ' } as const
const quote = (value: string): string => `"${value.replace(/"/g, '\\"')}"`

/** Rewrite rules; they go after the Accept-Encoding flags and before any other rewrite to a file. */
export function apacheDictionaryRewrites(ctx: ApacheDictionaryContext): string[] {
  const dir = ctx.kind === 'dir'
  const fileOf = (ref: string): string => (dir ? `%{REQUEST_FILENAME}${ref}` : `${ctx.root}$1${ref}`)
  const target = (ref: string): string => (dir ? `$1${ref}` : `${ctx.root}$1${ref}`)
  const to = fileTarget(dir)
  const lines = [
    '',
    '# RFC 9842 (docs/dictionary-transport.md). Use-As-Dictionary on versioned assets with a content-hashed',
    '# name (the immutable class: fresh as long as deltas against them are kept): their name with the',
    '# hash as `*`, relative to their URL.',
    '# Only in the immutable class (PE_CC, above): every response announced lives as long as its deltas.',
    'RewriteCond "%{ENV:PE_CC}" =immutable',
    `RewriteRule ${quote(`(?:^|/)(${HASHED_NAME_RULE.stem})(${HASHED_NAME_RULE.separator})${HASH_TOKEN_PCRE}\\.(${HASHED_NAME_RULE.extensions.join('|')})$`)} - [E=PE_UAD:$1$2*.$3]`,
    'RewriteCond "%{ENV:PE_CC}" =immutable',
    `RewriteRule ${quote(`(?:^|/)${PAGE_DICTIONARY_NAME_PATTERN}$`)} - [E=PE_UADP:1]`,
    'RewriteCond "%{ENV:PE_CC}" =immutable',
    `RewriteRule ${quote(`(?:^|/)${ASSET_DICTIONARY_NAME_PATTERN}$`)} - [E=PE_UADA:1]`,
    '# dcb / dcz accepted (1), refused (0) or not named; accepted first, so a coding named twice is',
    '# refused if any entry has q=0, as negotiate() decides.',
  ]
  for (const coding of CODINGS) {
    lines.push(
      `RewriteCond "%{HTTP:Accept-Encoding}" ${quote(acceptTokenPattern(coding))} [NC,NV]`,
      `RewriteRule ^ - [E=${ENV[coding]}:1]`,
      `RewriteCond "%{HTTP:Accept-Encoding}" ${quote(refuseTokenPattern(coding))} [NC,NV]`,
      `RewriteRule ^ - [E=${ENV[coding]}:0]`,
    )
  }
  lines.push(
    '# The dictionary the client holds (PE_DICT), read once: a .htaccess compiles every regex per request.',
    '# NV: only a delta varies on it (its own Vary below), not every response to a client that sends it.',
    `RewriteCond "%{HTTP:Available-Dictionary}" ${quote(AVAILABLE_DICTIONARY_PATTERN)} [NV]`,
    'RewriteRule ^ - [E=PE_DICT:%1]',
    '# A delta for that dictionary, when one exists (dcb, then dcz); else nothing changes.',
  )
  for (const coding of CODINGS) {
    lines.push(
      `RewriteCond "%{ENV:${ENV[coding]}}" =1`,
      'RewriteCond "%{ENV:PE_DICT}" !=""',
      `RewriteCond "${fileOf(`.dict/%{ENV:PE_DICT}.$2.${coding}`)}" -f`,
      `RewriteRule "^(${dir ? '' : '/'}.+\\.([A-Za-z0-9]+))$" "${target(`.dict/%{ENV:PE_DICT}.$2.${coding}`)}${to.tail}" [${to.flags}]`,
    )
  }
  return lines
}

/** Type, encoding, Vary and cache rules for delta files; `types` maps extension -> Content-Type. */
export function apacheDictionaryFileRules(
  types: ReadonlyMap<string, string>,
  cacheControl: { html: string; immutable: string },
): string[] {
  const byType = new Map<string, string[]>()
  for (const [extension, type] of types) byType.set(type, [...(byType.get(type) ?? []), extension])
  const lines = ['', "# RFC 9842 deltas (<file>.dict/<hash><.ext>.dcb|dcz): the original's type, their own coding."]
  for (const [type, extensions] of byType) {
    lines.push(
      `<FilesMatch "(?i)=\\.(?:${extensions.map(escapeRegex).join('|')})\\.dc[bz]$">`,
      `    ForceType ${quote(type)}`,
      '</FilesMatch>',
    )
  }
  lines.push(
    // A delta's file name ends its dictionary's base64 id (`…=`) + the original's extension: a
    // user's own `notes.dcb` (or anything in a `my.dict/` folder of theirs) is a file like any other.
    '<FilesMatch "^[A-Za-z0-9+]*=\\.[A-Za-z0-9]+\\.dc[bz]$">',
    '    RemoveType .dcb .dcz',
    '    AddEncoding dcb .dcb',
    '    AddEncoding dcz .dcz',
    '    SetEnv no-gzip 1',
    '    SetEnv no-brotli 1',
    '    Header set Vary "Accept-Encoding, Available-Dictionary"',
    `    Header set Cache-Control ${quote(cacheControl.immutable)}`,
    '</FilesMatch>',
    '<FilesMatch "(?i)^[A-Za-z0-9+]*=\\.html?\\.dc[bz]$">',
    `    Header set Cache-Control ${quote(cacheControl.html)}`,
    '</FilesMatch>',
    '# Use-As-Dictionary, set by the RewriteRule above (REDIRECT_ after a rewrite to a sidecar or delta).',
    'Header set Use-As-Dictionary "match=\\"%{PE_UAD}e\\"" env=PE_UAD',
    'Header set Use-As-Dictionary "match=\\"%{REDIRECT_PE_UAD}e\\"" env=REDIRECT_PE_UAD',
    '# The shared page dictionary, for every page navigation.',
    `Header set Use-As-Dictionary ${quote(PAGE_USE_AS_DICTIONARY)} env=PE_UADP`,
    `Header set Use-As-Dictionary ${quote(PAGE_USE_AS_DICTIONARY)} env=REDIRECT_PE_UADP`,
    '# The asset dictionary, for scripts and styles with a new name.',
    `Header set Use-As-Dictionary ${quote(ASSET_USE_AS_DICTIONARY)} env=PE_UADA`,
    `Header set Use-As-Dictionary ${quote(ASSET_USE_AS_DICTIONARY)} env=REDIRECT_PE_UADA`,
  )
  return lines
}
