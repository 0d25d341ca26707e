/**
 * Content-coding negotiation per RFC 9110 §12.5.3 (Accept-Encoding), shared by the Node
 * middleware and the CloudFront function generator, and mirrored by the regexes the
 * nginx/Apache generators emit (see `shared/accept-regex.ts`).
 *
 * Rules:
 * - codings are matched whole and case-insensitively (`brotli` is not `br`, `GZIP` is gzip);
 * - `x-gzip` is gzip (RFC 9110 §8.4.1.3);
 * - `q=0` refuses a coding; `*` covers every coding not named, identity included;
 *   `identity;q=0` (or `*;q=0` without an identity entry) refuses the uncompressed original;
 * - a coding named more than once is refused if any of its entries has q=0 (the cautious
 *   reading, and the one the server regexes implement);
 * - an entry with a malformed q-value is ignored;
 * - among the acceptable codings the smallest available variant wins. Relative q-values
 *   (`gzip;q=1, br;q=0.5`) are deliberately not used to rank: every server flavour can
 *   implement "acceptable or not", few can compare weights, and the bytes saved are the
 *   point of preencode. See docs/servers/*.md.
 */

import { ALL_FORMATS, CODECS, type Encoding } from '@preencode/core'

/** A content coding preencode can serve, as written in Content-Encoding (core's codec table). */
export type { Encoding }

/** What `negotiate` picked: a coding, the original (`identity`), or `null` when nothing is acceptable. */
export type Negotiated = Encoding | 'identity' | null

/**
 * Per RFC 9110 §12.4.2: `0` to `1` with at most three decimals. An entry whose weight does not
 * match (`q=.5`, `q=0x1`, `q=1.0001`, `q=2`, a bare `q`) is ignored, as if absent: the safer
 * reading, since taking it as 1 would send a coding the client never clearly accepted.
 */
export const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/** Tokens that name the same coding (`x-gzip`), from core's codec table. */
const ALIASES: Readonly<Record<string, string>> = Object.fromEntries(
  ALL_FORMATS.flatMap((format) => CODECS[format].aliases.map((alias) => [alias, CODECS[format].encoding])),
)

export interface ParsedAcceptEncoding {
  /** Lower-case coding -> q-value (the minimum when a coding is listed twice). */
  readonly codings: ReadonlyMap<string, number>
}

/** Header values whose parse is remembered: browsers send a handful, so a request reads a parse made before. */
const MAX_PARSED = 256
const PARSED = new Map<string, ParsedAcceptEncoding>()

/**
 * Parses an Accept-Encoding value into coding -> q. Malformed entries are dropped. A value parsed
 * before is not parsed again (the last `MAX_PARSED` values, by the exact string; the parse is frozen).
 */
export function parseAcceptEncoding(value: string): ParsedAcceptEncoding {
  let parsed = PARSED.get(value)
  if (parsed === undefined) {
    if (PARSED.size >= MAX_PARSED) PARSED.delete(PARSED.keys().next().value as string)
    parsed = Object.freeze(parseAnew(value))
    PARSED.set(value, parsed)
  }
  return parsed
}

function parseAnew(value: string): ParsedAcceptEncoding {
  const codings = new Map<string, number>()
  for (const element of value.split(',')) {
    const [rawToken = '', ...params] = element.split(';')
    const token = rawToken.trim().toLowerCase()
    if (token === '') continue
    let q = 1
    let valid = true
    for (const param of params) {
      const eq = param.indexOf('=')
      if (eq === -1) {
        valid = false
        break
      }
      const name = param.slice(0, eq).trim().toLowerCase()
      const paramValue = param.slice(eq + 1).trim()
      if (name !== 'q') continue
      if (!QVALUE.test(paramValue)) {
        valid = false
        break
      }
      q = Number(paramValue)
    }
    if (!valid) continue
    const coding = ALIASES[token] ?? token
    const previous = codings.get(coding)
    codings.set(coding, previous === undefined ? q : Math.min(previous, q))
  }
  return { codings }
}

/** Whether a coding (or `identity`) is acceptable under a parsed header. */
export function isAcceptable(parsed: ParsedAcceptEncoding, coding: Encoding | 'identity'): boolean {
  const explicit = parsed.codings.get(coding)
  if (explicit !== undefined) return explicit > 0
  const star = parsed.codings.get('*')
  if (star !== undefined) return star > 0
  // Not named and no `*`: identity stays acceptable (RFC 9110 §12.5.3), other codings are not.
  return coding === 'identity'
}

/**
 * Picks the representation to send.
 *
 * @param acceptEncoding the request's Accept-Encoding value; `undefined` (no header) gets the original
 * @param available the codings that exist for this file, **smallest first**; the first acceptable one wins
 * @returns the coding, `'identity'` for the original, or `null` when the client refuses everything
 *   (servers then usually send the original anyway, as RFC 9110 §12.5.3 allows)
 */
export function negotiate(acceptEncoding: string | undefined, available: readonly Encoding[]): Negotiated {
  if (acceptEncoding === undefined) return 'identity'
  const parsed = parseAcceptEncoding(acceptEncoding)
  for (const coding of available) {
    if (isAcceptable(parsed, coding)) return coding
  }
  return isAcceptable(parsed, 'identity') ? 'identity' : null
}
