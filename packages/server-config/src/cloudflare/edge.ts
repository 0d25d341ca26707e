/**
 * What Cloudflare's front line does to a Worker's response on the way to the visitor, so the
 * Worker only sends what arrives unchanged. The front line picks gzip or br for the visitor
 * itself: among the visitor's Accept-Encoding entries with q > 0, sorted by q (ties keep the
 * header's order), the first that is `gzip`, `br` or `identity`. A response in gzip or br that
 * is not that pick is decoded and, unless the pick is identity, encoded again at the edge's own
 * level; zstd, dcb and dcz pass through untouched.
 *
 * This is Miniflare's model of the front line (`ensureAcceptableEncoding` in its entry worker,
 * which `wrangler dev` runs in front of every Worker); we cannot observe the production edge
 * from here (docs/deploy/cloudflare.md says so). Chromium sends `gzip, deflate, br, zstd`: the
 * pick is gzip, so a br response would arrive as the edge's gzip. The Worker therefore leaves
 * br out for such a client and serves zstd (or the stored gzip) byte for byte.
 */
import type { Encoding } from '../http/negotiate.js'

/** The codings the edge itself may choose for a visitor, and what it passes through. */
const EDGE_CODINGS = new Set(['gzip', 'br'])

/**
 * One entry as the front line reads its weight (Miniflare's `acceptEncodingElement`): `;q=` and
 * digits, `.` being any character, read with parseFloat. Not RFC 9110's qvalue, which the
 * Worker itself applies (an entry with a malformed weight is ignored): the edge takes
 * `br;q=1.0001` or `br;q=2` as above 1 and `br;q=0x1` as 0, and drops `br;q=.5` or a bare `br;q`.
 * Tokens are read as negotiate() reads them (any case, `x-gzip`).
 */
const EDGE_ENTRY = /^([^\s;]+)(?:\s*;\s*q=(\d+(?:.\d+)?))?$/

function edgeEntries(acceptEncoding: string): [string, number][] {
  const entries: [string, number][] = []
  for (const element of acceptEncoding.split(',')) {
    const match = EDGE_ENTRY.exec(element.trim())
    if (!match) continue
    const token = match[1]!.toLowerCase()
    entries.push([token === 'x-gzip' ? 'gzip' : token, match[2] === undefined ? 1 : Number.parseFloat(match[2])])
  }
  return entries
}

/** The edge's own choice for a visitor: `gzip`, `br`, or undefined (it sends identity, or leaves the response alone). */
export function edgeChoice(acceptEncoding: string | undefined): 'gzip' | 'br' | undefined {
  if (acceptEncoding === undefined) return undefined
  const entries = edgeEntries(acceptEncoding).filter(([, q]) => q > 0)
  // A stable sort: among equal q-values the header's order decides.
  entries.sort((a, b) => b[1] - a[1])
  const first = entries.find(([coding]) => EDGE_CODINGS.has(coding) || coding === 'identity')
  return first && first[0] !== 'identity' ? (first[0] as 'gzip' | 'br') : undefined
}

/**
 * The variants (smallest first) the edge passes through unchanged for this visitor: zstd always,
 * gzip and br only when they are the edge's own choice. `negotiate` then picks among them.
 */
export function edgeSafeCodings(acceptEncoding: string | undefined, codings: readonly Encoding[]): Encoding[] {
  const choice = edgeChoice(acceptEncoding)
  return codings.filter((coding) => !EDGE_CODINGS.has(coding) || coding === choice)
}
