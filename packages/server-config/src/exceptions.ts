/**
 * Where a server answers differently from the serving specification (`http/spec.ts`) by design:
 * one table, each difference named, with why and where it is documented. The e2e serving suite
 * expects exactly the specification's answer from every server, bar these (`expectedCoding`);
 * the JavaScript servers (the Node middleware, the Fetch handler, `preencode serve`) have none.
 * A difference not in this table is a bug.
 */
import type { Manifest, ManifestFile } from '@preencode/core'
import { edgeSafeCodings, edgeView } from './cloudflare/edge.js'
import { type Encoding, parseAcceptEncoding } from './http/negotiate.js'
import { servedFileOf } from './http/served-file.js'
import { type ChooseOptions, chooseRepresentation } from './http/spec.js'
import { servedCodings } from './shared/policy.js'

/** One difference by design between a configured server and the serving specification. */
export interface ServingException {
  /** Server families it applies to (`caddy` covers Caddy's every form). */
  readonly servers: readonly string[]
  /** What the server does instead, and why. */
  readonly what: string
  readonly docs: string
}

/**
 * The one table of differences by design between a configured server and the serving
 * specification; any other difference is a bug. The e2e serving suite expects exactly the
 * specification bar these.
 */
export const SERVING_EXCEPTIONS = {
  /** The configs try the codings in one fixed order and serve the first the file has: not its smallest variant. */
  fixedCodingOrder: {
    servers: ['caddy', 'nginx', 'apache'],
    what: "The first acceptable coding in one fixed order (br, zstd, gzip among the site's formats) that the file has, not its smallest acceptable variant: a config does not know sizes. On bench/app no `.zst` is smaller than its `.br` (0 bytes for a browser); 9 of 95 `.gz` are 1–7 bytes smaller than their `.zst` (28 bytes in all, for a client that takes zstd and gzip but not br).",
    docs: 'docs/lifecycle.md',
  },
  /** Caddy ranks by weight before its fixed order (`precompressed br zstd gzip`). */
  weightRanked: {
    servers: ['caddy'],
    what: 'Caddy takes the highest weight first (`br;q=0.5, gzip` gets gzip), then the fixed order.',
    docs: 'docs/servers/caddy.md',
  },
  /** Caddy does not read `*` in Accept-Encoding: the original (identity stays acceptable under `*`). */
  starIgnored: {
    servers: ['caddy'],
    what: '`*` in Accept-Encoding is not understood: such a client gets the original, which `*` allows.',
    docs: 'docs/servers/caddy.md',
  },
  /** Caddy's `encode.AcceptedEncodings` reads weights with strconv.ParseFloat, not RFC 9110's grammar. */
  weightAsParsed: {
    servers: ['caddy'],
    what: "A weight outside RFC 9110's qvalue grammar is read, not ignored: `br;q=.5` as 0.5, one it cannot read or outside [0, 1] (`br;q=0x1`, `br;q=2`, a bare `br;q`) as 1; only an entry's first parameter counts.",
    docs: 'docs/servers/caddy.md',
  },
  /** Go's `http.ServeContent` answers 304 to an If-Modified-Since later than its clock. */
  futureIfModifiedSince304: {
    servers: ['caddy'],
    what: 'An If-Modified-Since in the future gets 304 (RFC 9110 §13.1.3 says to ignore it); browsers only send back the Last-Modified they got.',
    docs: 'docs/servers/caddy.md',
  },
  /** Cloudflare's front line re-encodes gzip/br that are not its own pick, so the Worker leaves them out. */
  edgeSafeCodings: {
    servers: ['cloudflare'],
    what: "gzip and br variants are sent only when they are the edge's own pick for the header (zstd always): the edge would decode and re-encode any other (cloudflare/edge.ts).",
    docs: 'docs/deploy/cloudflare.md',
  },
  /** Cloudflare's front line encodes an original (identity) response into its own pick. */
  edgeEncodesOriginal: {
    servers: ['cloudflare'],
    what: "Where the Worker sends the original (RFC 9110's reading accepts no safe variant) and the front line, reading weights its own way, has a pick (`br;q=1.0001`), the visitor gets the edge's encoding of it (cloudflare/edge.ts).",
    docs: 'docs/deploy/cloudflare.md',
  },
  /** With keepOriginals: false, the 404 page needs its original for a client that takes no coding. */
  notFoundPageNeedsOriginal: {
    servers: ['nginx', 'apache'],
    what: "keepOriginals: false: a client that takes no coding gets the server's plain 404 instead of the site's 404.html, whose original is not on disk (nginx's error path and Apache's ErrorDocument redirect do not decode the gzip variant).",
    docs: 'docs/static-host-conventions.md',
  },
  /** CloudFront's function never sees the origin's miss: the 404 page is the distribution's custom error response. */
  notFoundPageByDistribution: {
    servers: ['cloudfront'],
    what: "A viewer-request function never sees S3's miss: the 404 page is the distribution's custom error response (403 and 404 -> /404.html, code 404), fetched without the function, so it is not negotiated; with clean URLs on, an extensionless path without a page is asked for as `<path>.html` and gets that same error.",
    docs: 'docs/deploy/s3-cloudfront.md',
  },
} as const satisfies Record<string, ServingException>

/** The name of one of `SERVING_EXCEPTIONS`. */
export type ServingExceptionName = keyof typeof SERVING_EXCEPTIONS

/** Whether `server` (a family: `caddy`, `nginx`, `cloudflare`, `node`…) answers with this exception. */
export function hasServingException(server: string, name: ServingExceptionName): boolean {
  return (SERVING_EXCEPTIONS[name].servers as readonly string[]).includes(server)
}

/**
 * Caddy's reading of each entry's weight (`encode.AcceptedEncodings`: the first parameter, a weight
 * ParseFloat reads within [0, 1], else 1; below 0.00001 refused), written back as RFC 9110 qvalues.
 */
function caddyWeights(header: string): string {
  const entries: string[] = []
  for (const entry of header.split(',')) {
    const [token = '', first] = entry.split(';')
    if (token.trim() === '') continue
    const param = first?.trim().toLowerCase()
    const text = param?.startsWith('q=') ? param.slice(2) : ''
    const parsed = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN
    const q = parsed >= 0 && parsed <= 1 ? parsed : 1
    entries.push(`${token.trim()};q=${q < 0.00001 ? '0' : Math.max(q, 0.001).toFixed(3)}`)
  }
  return entries.join(',')
}

/**
 * The coding `server` itself sends for `acceptEncoding`: the specification's choice, with the
 * server's named exceptions applied. `manifest` gives the fixed order of Caddy's form.
 */
export function serverCoding(
  server: string,
  manifest: Manifest,
  acceptEncoding: string | undefined,
  file: ManifestFile,
): Encoding | 'identity' {
  const options: ChooseOptions = {}
  let header = acceptEncoding
  if (hasServingException(server, 'fixedCodingOrder')) {
    const order = servedCodings(manifest)
    const ranked = hasServingException(server, 'weightRanked')
    // Caddy ranks by weight (where the specification takes the smallest acceptable); ties keep the order.
    options.codings = (ae, available) => {
      const inOrder = order.filter((e) => available.includes(e))
      if (!ranked) return inOrder
      const weights = ae === undefined ? new Map<string, number>() : parseAcceptEncoding(ae).codings
      const weight = (e: Encoding): number => weights.get(e) ?? 0
      return inOrder.sort((a, b) => weight(b) - weight(a))
    }
  }
  if (hasServingException(server, 'starIgnored'))
    header = header
      ?.split(',')
      .filter((e) => e.split(';')[0]!.trim() !== '*')
      .join(',')
  if (header !== undefined && hasServingException(server, 'weightAsParsed')) header = caddyWeights(header)
  if (hasServingException(server, 'edgeSafeCodings')) options.codings = edgeSafeCodings
  const headers = header === undefined ? {} : { 'accept-encoding': header }
  const served = { ...servedFileOf(file), deltas: undefined }
  const chosen = chooseRepresentation({ method: 'GET', headers }, served, options)
  return (chosen?.encoding as Encoding | undefined) ?? 'identity'
}

/**
 * The coding the client receives from `server`: `serverCoding`, or the coding an edge in front of
 * it encodes the original into (`edgeEncodesOriginal`).
 */
export function expectedCoding(
  server: string,
  manifest: Manifest,
  acceptEncoding: string | undefined,
  file: ManifestFile,
): Encoding | 'identity' {
  const sent = serverCoding(server, manifest, acceptEncoding, file)
  if (sent !== 'identity' || !hasServingException(server, 'edgeEncodesOriginal')) return sent
  return edgeView(acceptEncoding).pick ?? 'identity'
}
