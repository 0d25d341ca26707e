/**
 * The mod_rewrite half of the Apache rules, for `.htaccess` / `<Directory>` ("dir": paths
 * relative to the site root, a rewrite is an internal redirect, `[END]` keeps it from running
 * again on the sidecar) and for the vhost ("server": URL paths, rewritten straight to files).
 *
 * A `.htaccess` is read, parsed and its regexes compiled on every request (measured in
 * docs/servers/apache.md: PCRE compilation was 40% of the CPU time of the first generated
 * file), so the rules here are written to compile little:
 * - the long compressible-extension regex is matched once (`PE_C`);
 * - the content-hash rule is the lookahead form of `hashedNamePattern()` (15x shorter);
 * - `*` is read first and sets every coding's flag, then each coding named in the header
 *   overrides it, so every later condition is a plain string compare (`=1`), not a regex.
 */
import { ALL_ENCODINGS } from '@preencode/core'
import { DOTFILE_RELATIVE_PCRE, DOTFILE_URL_PCRE } from '../http/dotfiles.js'
import type { Encoding } from '../http/negotiate.js'
import { acceptPattern, refusePattern } from '../shared/accept-regex.js'
import { HASHED_NAME_PCRE, hashedNamePattern, type ServingPolicy, SUFFIX } from '../shared/policy.js'
import { apacheConventionFile, apacheConventionRewrites } from './conventions.js'
import { apacheDictionaryRewrites } from './dictionary.js'
import { fileTarget } from './file-target.js'

export type ApacheContext = { kind: 'dir' } | { kind: 'server'; root: string }

const FLAG: Readonly<Record<Encoding, string>> = { br: 'PE_AE_BR', zstd: 'PE_AE_ZSTD', gzip: 'PE_AE_GZIP' }

const quote = (value: string): string => `"${value.replace(/"/g, '\\"')}"`
const accepted = (coding: Encoding): string => `RewriteCond "%{ENV:${FLAG[coding]}}" =1`

export function apacheRewriteRules(policy: ServingPolicy, ctx: ApacheContext): string[] {
  const dir = ctx.kind === 'dir'
  const fileOf = (ref: string): string => (dir ? `%{REQUEST_FILENAME}` : `${ctx.root}${ref}`)
  const target = (ref: string): string => (dir ? ref : `${ctx.root}${ref}`)
  const compressible = `(?i)\\.(?:${policy.extensions.join('|')})$`
  const immutable = policy.immutablePattern === hashedNamePattern() ? HASHED_NAME_PCRE : policy.immutablePattern
  const all = `^(${dir ? '' : '/'}.+)$`
  const isCompressible = 'RewriteCond "%{ENV:PE_C}" =1'
  const to = fileTarget(dir)
  // In a .htaccess the on-the-fly filters are turned off here, where the extension regex is
  // matched anyway, instead of by a <FilesMatch> that would compile it again.
  const compressibleFlags = dir ? 'E=PE_C:1,E=no-gzip:1,E=no-brotli:1' : 'E=PE_C:1'
  const lines: string[] = [
    'RewriteEngine On',
    '',
    '# Dotfiles and dot-folders (the manifest, the deploy state, .env, temp files) are never served;',
    '# /.well-known/ is (RFC 8615).',
    `RewriteRule ${quote(dir ? DOTFILE_RELATIVE_PCRE : DOTFILE_URL_PCRE)} - [R=404,L]`,
    '',
    ...apacheConventionRewrites(policy, dir ? undefined : ctx.root),
    ...(policy.conventions.cleanUrls || policy.conventions.spa ? [''] : []),
    '# Compressible by name (read by the rules below).',
    `RewriteRule ${quote(compressible)} - [${compressibleFlags}]`,
    '',
    '# Cache class of the requested URL (read by the Header rules at the end).',
    'RewriteRule ^ - [E=PE_CC:default]',
    `RewriteCond "%{REQUEST_URI}" ${quote(immutable)}`,
    'RewriteRule ^ - [E=PE_CC:immutable]',
    '',
    '# Accept-Encoding per RFC 9110 §12.5.3 -> PE_AE_* = 1 (acceptable) or 0 (refused); unset when',
    '# not named. `*` first, for every coding; then a coding named accepted, then named with q=0',
    '# (a coding named twice is refused if any entry has q=0, as negotiate() decides).',
    `RewriteCond "%{HTTP:Accept-Encoding}" ${quote(acceptPattern('*'))} [NC,NV]`,
    `RewriteRule ^ - [${policy.codings.map((c) => `E=${FLAG[c]}:1`).join(',')}]`,
    `RewriteCond "%{HTTP:Accept-Encoding}" ${quote(refusePattern('*'))} [NC,NV]`,
    `RewriteRule ^ - [${policy.codings.map((c) => `E=${FLAG[c]}:0`).join(',')}]`,
  ]
  for (const coding of ALL_ENCODINGS.filter((e) => policy.codings.includes(e))) {
    lines.push(
      `RewriteCond "%{HTTP:Accept-Encoding}" ${quote(acceptPattern(coding))} [NC,NV]`,
      `RewriteRule ^ - [E=${FLAG[coding]}:1]`,
      `RewriteCond "%{HTTP:Accept-Encoding}" ${quote(refusePattern(coding))} [NC,NV]`,
      `RewriteRule ^ - [E=${FLAG[coding]}:0]`,
    )
  }
  lines.push(...apacheDictionaryRewrites(ctx))
  if (dir && !policy.keepOriginals) {
    lines.push(
      '',
      '# keepOriginals: false — mod_dir finds no index.html on disk: name it here so its variants are found.',
      'RewriteCond "%{REQUEST_FILENAME}" -d',
      'RewriteRule "^(.*/)?$" "$1index.html"',
    )
  }
  lines.push(
    '',
    `# Every compressible file: the first acceptable coding whose sidecar exists (${policy.codings.join(', ')}).`,
  )
  for (const coding of policy.codings) {
    lines.push(
      isCompressible,
      accepted(coding),
      `RewriteCond "${fileOf('$1')}${SUFFIX[coding]}" -f`,
      `RewriteRule "${all}" "${target('$1')}${SUFFIX[coding]}${to.tail}" [${to.flags}]`,
    )
  }
  if (!policy.keepOriginals) {
    lines.push(
      '',
      '# keepOriginals: false — the original is not on disk and no coding is acceptable: the gzip variant,',
      dir
        ? "# refused with 406: mod_deflate's INFLATE filter skips internal redirects, which .htaccess rewrites are (use the vhost form)."
        : "# decoded by mod_deflate's INFLATE filter (see the <If> below).",
      isCompressible,
      `RewriteCond "${fileOf('$1')}" !-f`,
      `RewriteCond "${fileOf('$1')}.gz" -f`,
      // Not for the 404 page an ErrorDocument redirect asks for: INFLATE would not run there and
      // the .htaccess 406 would replace the 404 (SERVING_EXCEPTIONS.notFoundPageNeedsOriginal).
      ...(policy.notFoundPage ? ['RewriteCond "%{ENV:REDIRECT_STATUS}" !=404'] : []),
      dir
        ? `RewriteRule "${all}" - [R=406,L]`
        : `RewriteRule "${all}" "${target('$1')}.gz${to.tail}" [E=PE_INFLATE:1,${to.flags}]`,
    )
  }
  lines.push(...apacheConventionFile(policy, dir ? undefined : ctx.root, to))
  return lines
}
