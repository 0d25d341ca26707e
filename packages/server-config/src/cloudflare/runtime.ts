/**
 * The Cloudflare Worker's request handler, by the rules of the Node middleware (`middleware.ts`)
 * and with the same pure functions: `negotiate` (q-values, `*`, aliases), `chooseDelta` (a valid
 * `Available-Dictionary` and dcb/dcz named in Accept-Encoding), `noneMatch`/`match`/
 * `notModifiedSince`, `parseRange`. The build bundles this module with them into
 * `dist/cloudflare/preencode-runtime.js` (scripts/bundle-worker-runtime.mjs), which `config
 * cloudflare` copies next to the generated Worker: one implementation, not a copy of it.
 *
 * Which representations exist comes from the imported site data (`site-data.ts`); the bytes come
 * from the static-assets binding and go out as they are stored: `encodeBody: 'manual'` tells the
 * runtime not to encode them again, and only codings the edge passes through are chosen
 * (`edge.ts`). Bodies are streamed from the binding, never buffered; a range is cut from the
 * stream.
 */
import { etagOf, match, noneMatch, notModifiedSince } from '../http/conditional.js'
import { chooseDelta, deltasByDictionary, type DeltaIndex } from '../http/dictionary-delta.js'
import { negotiate } from '../http/negotiate.js'
import { parseRange, type ByteRange } from '../http/range.js'
import { isDotPath } from '../shared/dotfiles.js'
import { edgeSafeCodings } from './edge.js'
import { WORKER_SITE_VERSION, type WorkerFile, type WorkerSite } from './site-data.js'

/** The static-assets binding (`env.ASSETS`). */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>
}

export interface WorkerEnv {
  ASSETS: AssetsBinding
}

/** `ResponseInit` as Workers take it: `encodeBody: 'manual'` sends a body with Content-Encoding as it is. */
type WorkerResponseInit = ResponseInit & { encodeBody?: 'manual' | 'automatic' }

/** Workers' own stream that gives a response a known length (absent in Node). */
type FixedLengthStreamConstructor = new (length: number) => TransformStream<Uint8Array, Uint8Array>

interface Representation {
  path: string
  size: number
  etag: string
  encoding: string | undefined
  delta: boolean
  /** Decode the stored gzip variant (`keepOriginals: false`, a client that takes no coding). */
  decode: boolean
}

export interface PreencodeWorker {
  fetch(request: Request, env: WorkerEnv): Promise<Response>
}

/** The Worker for one site's data. */
export function createWorker(site: WorkerSite): PreencodeWorker {
  if (site.version !== WORKER_SITE_VERSION)
    throw new Error(
      `[preencode] [cloudflare] preencode-site.js is version ${String(site.version)}, this runtime reads ${WORKER_SITE_VERSION}: run \`preencode config cloudflare\` again.`,
    )
  const hidden = new Set(site.hidden)
  const deltas = new Map<string, DeltaIndex>()
  const deltasOf = (path: string, file: WorkerFile): DeltaIndex => {
    let index = deltas.get(path)
    if (!index) deltas.set(path, (index = deltasByDictionary(file)))
    return index
  }
  return {
    async fetch(request, env) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return status(405, { Allow: 'GET, HEAD' })
      let relative: string
      try {
        relative = decodeURIComponent(new URL(request.url).pathname).slice(1)
      } catch {
        return status(400)
      }
      if (relative.includes('\0')) return status(400)
      // Dotfiles and dot-folders (`.env`, `.git/`, temp files), as every generated config: 404
      // even when the site data lists them; `/.well-known/` is served (shared/dotfiles.ts).
      if (isDotPath(`/${relative}`)) return status(404)
      if (relative === '' || relative.endsWith('/')) relative += site.index
      const name = relative.slice(relative.lastIndexOf('/') + 1)
      // Own keys only: `/constructor` or `/__proto__` must not find Object.prototype's members.
      const file = hidden.has(name) || !Object.hasOwn(site.files, relative) ? undefined : site.files[relative]
      if (!file) return status(404)
      return serve(request, env, file, deltasOf(relative, file))
    },
  }
}

/** Accept-Encoding as the visitor sent it: the edge rewrites the header and keeps the original in `cf`. */
function acceptEncodingOf(request: Request): string | undefined {
  const cf = (request as Request & { cf?: { clientAcceptEncoding?: string } }).cf
  if (cf && typeof cf.clientAcceptEncoding === 'string') return cf.clientAcceptEncoding
  return request.headers.get('accept-encoding') ?? undefined
}

function choose(request: Request, file: WorkerFile, deltas: DeltaIndex): Representation | undefined {
  const acceptEncoding = acceptEncodingOf(request)
  const delta = chooseDelta(deltas, request.headers.get('available-dictionary') ?? undefined, acceptEncoding)
  if (delta)
    return {
      path: delta.path,
      size: delta.size,
      etag: etagOf(delta.sha256),
      encoding: delta.encoding,
      delta: true,
      decode: false,
    }
  const codings = edgeSafeCodings(
    acceptEncoding,
    file.variants.map((v) => v.encoding),
  )
  const chosen = negotiate(acceptEncoding, codings)
  // Nothing acceptable: the original anyway, as RFC 9110 §12.5.3 allows (like the servers).
  const variant =
    chosen === null || chosen === 'identity' ? undefined : file.variants.find((v) => v.encoding === chosen)
  if (variant) return { ...variant, delta: false, decode: false }
  if (file.original) return { ...file.original, encoding: undefined, delta: false, decode: false }
  const gzip = file.variants.find((v) => v.encoding === 'gzip')
  return (
    gzip && {
      path: gzip.path,
      size: file.originalSize,
      etag: file.originalEtag,
      encoding: undefined,
      delta: false,
      decode: true,
    }
  )
}

async function serve(request: Request, env: WorkerEnv, file: WorkerFile, deltas: DeltaIndex): Promise<Response> {
  const chosen = choose(request, file, deltas)
  if (!chosen) return status(404)
  const headers = new Headers({ 'Content-Type': file.contentType })
  if (chosen.delta) headers.set('Vary', 'Accept-Encoding, Available-Dictionary')
  else if (file.variants.length > 0) headers.set('Vary', 'Accept-Encoding')
  if (file.useAsDictionary !== undefined) headers.set('Use-As-Dictionary', file.useAsDictionary)
  if (chosen.encoding) headers.set('Content-Encoding', chosen.encoding)
  headers.set('Cache-Control', file.cacheControl)
  headers.set('X-Content-Type-Options', 'nosniff')
  headers.set('ETag', chosen.etag)
  headers.set('Last-Modified', file.lastModified)
  if (!chosen.decode) headers.set('Accept-Ranges', 'bytes')

  const ifMatch = request.headers.get('if-match')
  if (ifMatch !== null && !match(ifMatch, chosen.etag)) return finish(412, headers)
  const ifNoneMatch = request.headers.get('if-none-match')
  const ifModifiedSince = request.headers.get('if-modified-since')
  if (ifNoneMatch !== null) {
    if (noneMatch(ifNoneMatch, chosen.etag)) return finish(304, headers)
  } else if (ifModifiedSince !== null && notModifiedSince(ifModifiedSince, Date.parse(file.lastModified))) {
    return finish(304, headers)
  }

  let range: ByteRange | undefined
  const rangeHeader = request.headers.get('range')
  if (rangeHeader !== null && !chosen.decode) {
    const ifRange = request.headers.get('if-range')
    const applies =
      ifRange === null || (ifRange.startsWith('"') ? ifRange === chosen.etag : ifRange === file.lastModified)
    if (applies) {
      const parsed = parseRange(rangeHeader, chosen.size)
      if (parsed === 'unsatisfiable') {
        headers.set('Content-Range', `bytes */${chosen.size}`)
        return finish(416, headers)
      }
      range = parsed
    }
  }
  const code = range ? 206 : 200
  if (range) headers.set('Content-Range', `bytes ${range.start}-${range.end}/${chosen.size}`)
  const length = range ? range.end - range.start + 1 : chosen.size
  if (request.method === 'HEAD') {
    headers.set('Content-Length', String(length))
    return respond(null, code, headers)
  }

  // A fresh request: the binding must neither see the visitor's conditionals nor negotiate itself.
  const url = new URL(`/${chosen.path.split('/').map(encodeURIComponent).join('/')}`, request.url)
  const stored = await env.ASSETS.fetch(new Request(url.toString()))
  if (!stored.ok || !stored.body) return status(stored.status === 404 ? 404 : 502)
  let body: ReadableStream<Uint8Array> = stored.body
  if (chosen.decode) body = body.pipeThrough(new DecompressionStream('gzip') as TransformStream<Uint8Array, Uint8Array>)
  else if (range) body = body.pipeThrough(slice(range))
  // The stored body's length is known to the runtime; a decoded or cut one is given its length.
  if (chosen.decode || range) body = withLength(body, length, headers)
  else headers.set('Content-Length', String(length))
  return respond(body, code, headers)
}

/** Gives the body a known length: Workers' FixedLengthStream sends Content-Length instead of chunks. */
function withLength(body: ReadableStream<Uint8Array>, length: number, headers: Headers): ReadableStream<Uint8Array> {
  const Fixed = (globalThis as { FixedLengthStream?: FixedLengthStreamConstructor }).FixedLengthStream
  if (Fixed) return body.pipeThrough(new Fixed(length))
  headers.set('Content-Length', String(length))
  return body
}

/** Passes on bytes `start`..`end` (inclusive) of a stream and cancels the rest. */
function slice({ start, end }: ByteRange): TransformStream<Uint8Array, Uint8Array> {
  let offset = 0
  return new TransformStream({
    transform(chunk, controller) {
      const from = Math.max(start - offset, 0)
      const to = Math.min(end + 1 - offset, chunk.byteLength)
      offset += chunk.byteLength
      if (from < to) controller.enqueue(chunk.subarray(from, to))
      if (offset > end) controller.terminate()
    },
  })
}

function respond(body: ReadableStream<Uint8Array> | null, code: number, headers: Headers): Response {
  const init: WorkerResponseInit = { status: code, headers, encodeBody: 'manual' }
  return new Response(body, init)
}

function finish(code: number, headers: Headers): Response {
  if (code === 304) {
    headers.delete('Content-Type')
    headers.delete('Accept-Ranges')
  } else {
    // 412 and 416 carry no body, so no coding: with one, the front line acts on the empty answer
    // as on an encoded body (re-encodes it, or drops the connection for an odd Accept-Encoding).
    headers.delete('Content-Encoding')
  }
  return respond(null, code, headers)
}

function status(code: number, extra: Record<string, string> = {}): Response {
  return new Response(null, { status: code, headers: { 'X-Content-Type-Options': 'nosniff', ...extra } })
}
