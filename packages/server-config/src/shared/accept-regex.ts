/**
 * PCRE patterns over the raw Accept-Encoding value, for servers that cannot parse q-values
 * themselves (nginx `map`, Apache `RewriteCond`). They implement the same rules as
 * `negotiate()`: whole tokens (an entry is delimited by the start, a comma, or the end),
 * case-insensitive (the caller adds the flag: `~*` in nginx, `[NC]` in Apache), `x-gzip` as
 * gzip, `q=0`/`q=0.000` refusing. Whitespace is `\s`, which also covers RFC 9110's OWS.
 *
 * Both servers use PCRE, so lookahead is available: a positive q-value is `1`, `1.0..`, or
 * `0.` followed by up to three digits of which one is not zero.
 */
import type { Encoding } from '../http/negotiate.js'

/** The tokens, as a regex fragment, that name each coding in Accept-Encoding. */
const TOKEN_PATTERN: Readonly<Record<Encoding | '*', string>> = Object.freeze({
  br: 'br',
  zstd: 'zstd',
  gzip: '(?:x-)?gzip',
  '*': '\\*',
})

const START = '(?:^|,)\\s*'
const END = '\\s*(?:,|$)'
const Q_PREFIX = '\\s*;\\s*q\\s*=\\s*'
const Q_ZERO = '0(?:\\.0{0,3})?'
const Q_POSITIVE = '(?:1(?:\\.0{0,3})?|0\\.(?=\\d{0,2}[1-9])\\d{1,3})'

/** Matches when the header names the coding with q=0. */
export function refusePattern(coding: Encoding | '*'): string {
  return refuseTokenPattern(TOKEN_PATTERN[coding])
}

/** Matches when the header names the coding with no q or a positive q. */
export function acceptPattern(coding: Encoding | '*'): string {
  return acceptTokenPattern(TOKEN_PATTERN[coding])
}

/** `refusePattern` for any token regex (the dictionary codings `dcb`, `dcz` too). */
export function refuseTokenPattern(token: string): string {
  return `${START}${token}${Q_PREFIX}${Q_ZERO}${END}`
}

/** `acceptPattern` for any token regex. */
export function acceptTokenPattern(token: string): string {
  return `${START}${token}(?:${Q_PREFIX}${Q_POSITIVE})?${END}`
}
