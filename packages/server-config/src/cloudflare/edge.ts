/**
 * What Cloudflare's front line does to a Worker's response on the way to the visitor, so the
 * Worker only sends what arrives unchanged. This is Miniflare's model of the front line
 * (`ensureAcceptableEncoding` in its entry worker, which `wrangler dev` runs in front of every
 * Worker), followed step for step; the production edge cannot be observed from here
 * (docs/deploy/cloudflare.md says so).
 *
 * The front line reads the visitor's Accept-Encoding with a strict grammar: an element is a
 * lower-case token (or `*`) with at most a `q` parameter; anything else (`GZIP`, `x-gzip`,
 * `gzip;level=1`) is ignored, and a header with no element it can read leaves every response
 * alone. Sorted by q (ties keep the header's order), the first `gzip` or `br` with q > 0 is its
 * pick, unless `identity` with q > 0 comes first. A gzip or br response that is not the pick is
 * decoded and, if there is a pick, encoded again at the edge's own level (a new body under the
 * Worker's ETag); zstd, dcb and dcz pass untouched. With no pick and `identity;q=0` or `*;q=0`,
 * an identity, gzip or br response becomes `415 Unsupported Media Type`.
 *
 * Chromium sends `gzip, deflate, br, zstd`: the pick is gzip, so a br response would arrive as
 * the edge's gzip. The Worker therefore leaves br out for such a client and serves zstd (or the
 * stored gzip) byte for byte.
 */
import type { Encoding } from '../http/negotiate.js'

/** The front line's view of one visitor's Accept-Encoding. */
export interface EdgeView {
  /** No element it can read (or no header): every response passes unchanged. */
  untouched: boolean
  /** The coding it encodes gzip, br and identity responses into; undefined: it decodes gzip and br. */
  pick: 'gzip' | 'br' | undefined
  /** No pick, and identity refused (`identity;q=0` or `*;q=0`): identity, gzip and br answer 415. */
  refusesIdentity: boolean
}

/**
 * One element as the front line reads it (Miniflare's `acceptEncodingElement`): a lower-case token
 * or `*`, an optional `;q=` of digits, `.` being any character, read with parseFloat. Not RFC
 * 9110's qvalue, which the Worker itself applies (an entry with a malformed weight is ignored):
 * the edge takes `br;q=1.0001` or `br;q=2` as above 1 and `br;q=0x1` as 0, and drops `br;q=.5`
 * or a bare `br;q` as unreadable.
 */
const ELEMENT = /^([a-z]+|\*)(?:\s*;\s*q=(\d+(?:.\d+)?))?$/

/** The codings the edge itself may choose for a visitor; it passes the others through. */
const EDGE_CODINGS = new Set(['gzip', 'br'])

/** How the front line reads `acceptEncoding`. */
export function edgeView(acceptEncoding: string | undefined): EdgeView {
  const view: EdgeView = { untouched: true, pick: undefined, refusesIdentity: false }
  if (acceptEncoding === undefined) return view
  const entries: [string, number][] = []
  for (const element of acceptEncoding.split(',')) {
    const match = ELEMENT.exec(element.trim())
    if (match) entries.push([match[1]!, match[2] === undefined ? 1 : Number.parseFloat(match[2])])
  }
  if (entries.length === 0) return view
  view.untouched = false
  // A stable sort: among equal q-values the header's order decides.
  entries.sort((a, b) => b[1] - a[1])
  for (const [coding, q] of entries) {
    if (q === 0) {
      if (coding === 'identity' || coding === '*') view.refusesIdentity = true
    } else if (EDGE_CODINGS.has(coding)) {
      view.pick = coding as 'gzip' | 'br'
      break
    } else if (coding === 'identity') break
  }
  if (view.pick) view.refusesIdentity = false
  return view
}

/** The edge's own choice for a visitor: `gzip`, `br`, or undefined (it sends identity, or leaves the response alone). */
export function edgeChoice(acceptEncoding: string | undefined): 'gzip' | 'br' | undefined {
  return edgeView(acceptEncoding).pick
}

/**
 * The variants (smallest first) the edge passes through unchanged for this visitor: zstd always,
 * gzip and br only when they are the edge's own choice, or every one when it reads no element of
 * the header. `negotiate` then picks among them.
 */
export function edgeSafeCodings(acceptEncoding: string | undefined, codings: readonly Encoding[]): Encoding[] {
  const view = edgeView(acceptEncoding)
  if (view.untouched) return [...codings]
  return codings.filter((coding) => !EDGE_CODINGS.has(coding) || coding === view.pick)
}
