/**
 * Where a server answers differently from the serving specification (`http/spec.ts`) by design:
 * one table, each difference named, with why and where it is documented. The e2e serving suite
 * expects exactly the specification's answer from every server, bar these (`expectedCoding`);
 * the JavaScript servers (the Node middleware, the Fetch handler, `preencode serve`) have none.
 * A difference not in this table is a bug.
 */
import type { Manifest, ManifestFile } from '@preencode/core'
import { edgeSafeCodings } from './cloudflare/edge.js'
import type { Encoding } from './http/negotiate.js'
import { servedFileOf } from './http/served-file.js'
import { chooseRepresentation, type ChooseOptions } from './http/spec.js'
import { servedCodings } from './shared/policy.js'

export interface ServingException {
  /** Server families it applies to (`caddy` covers Caddy's every form). */
  readonly servers: readonly string[]
  /** What the server does instead, and why. */
  readonly what: string
  readonly docs: string
}

export const SERVING_EXCEPTIONS = {
  /** Caddy's `precompressed br zstd gzip` is one fixed order: not each file's smallest variant. */
  fixedCodingOrder: {
    servers: ['caddy'],
    what: "Caddy tries the codings in one fixed order (br, zstd, gzip among the site's formats); it cannot read the marks with which nginx and Apache follow a file's own sizes.",
    docs: 'docs/servers/caddy.md',
  },
  /** Caddy does not read `*` in Accept-Encoding: the original (identity stays acceptable under `*`). */
  starIgnored: {
    servers: ['caddy'],
    what: '`*` in Accept-Encoding is not understood: such a client gets the original, which `*` allows.',
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
} as const satisfies Record<string, ServingException>

export type ServingExceptionName = keyof typeof SERVING_EXCEPTIONS

/** Whether `server` (a family: `caddy`, `nginx`, `cloudflare`, `node`…) answers with this exception. */
export function hasServingException(server: string, name: ServingExceptionName): boolean {
  return (SERVING_EXCEPTIONS[name].servers as readonly string[]).includes(server)
}

/**
 * The coding `server` sends for `acceptEncoding`: the specification's choice, with the server's
 * named exceptions applied. `manifest` gives the fixed order of Caddy's form.
 */
export function expectedCoding(
  server: string,
  manifest: Manifest,
  acceptEncoding: string | undefined,
  file: ManifestFile,
): Encoding | 'identity' {
  const options: ChooseOptions = {}
  let header = acceptEncoding
  if (hasServingException(server, 'fixedCodingOrder')) {
    const order = servedCodings(manifest)
    options.codings = (_, available) => order.filter((e) => available.includes(e))
  }
  if (hasServingException(server, 'starIgnored'))
    header = header
      ?.split(',')
      .filter((e) => e.split(';')[0]!.trim() !== '*')
      .join(',')
  if (hasServingException(server, 'edgeSafeCodings')) options.codings = edgeSafeCodings
  const headers = header === undefined ? {} : { 'accept-encoding': header }
  const served = { ...servedFileOf(file), deltas: undefined }
  const chosen = chooseRepresentation({ method: 'GET', headers }, served, options)
  return (chosen?.encoding as Encoding | undefined) ?? 'identity'
}
