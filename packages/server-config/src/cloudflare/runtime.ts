/**
 * The Cloudflare Worker's request handler: the serving specification (`http/spec.ts`) — the
 * same one the Node middleware and the Fetch handler answer by — with the I/O of a Worker
 * around it. The build bundles this module with it into `dist/cloudflare/preencode-runtime.js`
 * (scripts/bundle-worker-runtime.mjs), which `config cloudflare` copies next to the generated
 * Worker: one implementation, not a copy of it.
 *
 * Which representations exist comes from the imported site data (`site-data.ts`); the bytes come
 * from the static-assets binding and go out as they are stored: `encodeBody: 'manual'` tells the
 * runtime not to encode them again, and only codings the edge passes through are chosen
 * (`edge.ts`, a named exception in `exceptions.ts`). Bodies are streamed from the binding,
 * never buffered; a range is cut from the stream. A Worker has no app behind it: what the
 * specification passes on is answered here (405 for another method, 400 for a path that does
 * not decode), and a path with no file gets the static-host conventions: clean URL, SPA, the
 * site's 404.html, else a bare 404 (as does every dot path).
 */

import { DEFAULT_CONVENTIONS, fallbacksOf } from '../http/conventions.js'
import type { ByteRange } from '../http/range.js'
import { readRequest } from '../http/request.js'
import { answer, chooseRepresentation, directoryRedirect, type RequestFacts } from '../http/spec.js'
import { edgeSafeCodings } from './edge.js'
import { WORKER_SITE_VERSION, type WorkerFile, type WorkerSite } from './site-data.js'

/** The static-assets binding (`env.ASSETS`). */
interface AssetsBinding {
  fetch(request: Request): Promise<Response>
}

export interface WorkerEnv {
  ASSETS: AssetsBinding
}

/** `ResponseInit` as Workers take it: `encodeBody: 'manual'` sends a body with Content-Encoding as it is. */
type WorkerResponseInit = ResponseInit & { encodeBody?: 'manual' | 'automatic' }

/** Workers' own stream that gives a response a known length (absent in Node). */
type FixedLengthStreamConstructor = new (length: number) => TransformStream<Uint8Array, Uint8Array>

export interface PreencodeWorker {
  fetch(request: Request, env: WorkerEnv): Promise<Response>
}

/** The Worker for one site's data. */
export function createWorker(site: WorkerSite): PreencodeWorker {
  // The prefix by hand: the Worker bundle carries no part of core (preencodeMessage).
  if (site.version !== WORKER_SITE_VERSION)
    throw new Error(
      `[preencode] [cloudflare] preencode-site.js is version ${String(site.version)}, this runtime reads ${WORKER_SITE_VERSION}: run \`preencode config cloudflare\` again.`,
    )
  const hidden = new Set(site.hidden)
  const conventions = site.conventions ?? { ...DEFAULT_CONVENTIONS, notFoundPage: true }
  const lookup = (relative: string): WorkerFile | undefined => {
    const name = relative.slice(relative.lastIndexOf('/') + 1)
    // Own keys only: `/constructor` or `/__proto__` must not find Object.prototype's members.
    return hidden.has(name) || !Object.hasOwn(site.files, relative) ? undefined : site.files[relative]
  }
  return {
    async fetch(request, env) {
      const read = readRequest(request.method, request.url, visitorHeader(request), site.index)
      if (read.kind === 'unreadable') return status(400)
      if (read.kind === 'pass') return read.status === 405 ? status(405, { Allow: 'GET, HEAD' }) : status(read.status)
      const { target, location, facts } = read
      const file = target.kind === 'file' ? lookup(target.path) : undefined
      if (file) return serve(request, facts, env, file)
      const index = target.kind === 'file' ? target.directoryIndex : undefined
      if (index !== undefined && lookup(index)) {
        const { status: code, headers } = directoryRedirect(location.pathname, location.search)
        return new Response(null, { status: code, headers })
      }
      // The static-host conventions: clean URL, SPA, the site's 404.html (`http/conventions.ts`).
      const missing = {
        path: target.path,
        asked: target.kind === 'file' ? target.asked : target.path,
        hidden: target.kind === 'hidden',
      }
      for (const fallback of fallbacksOf(missing, conventions, site.index, conventions.notFoundPage)) {
        const page = lookup(fallback.path)
        if (page) return serve(request, facts, env, page, fallback.status)
      }
      return status(404)
    },
  }
}

/** The request's headers, Accept-Encoding as the visitor sent it: the edge rewrites the header and keeps the original in `cf`. */
function visitorHeader(request: Request): (name: string) => string | null {
  const cf = (request as Request & { cf?: { clientAcceptEncoding?: string } }).cf
  const visitor = cf && typeof cf.clientAcceptEncoding === 'string' ? cf.clientAcceptEncoding : undefined
  return (name) => (name === 'accept-encoding' && visitor !== undefined ? visitor : request.headers.get(name))
}

async function serve(
  request: Request,
  facts: RequestFacts,
  env: WorkerEnv,
  file: WorkerFile,
  as: 200 | 404 = 200,
): Promise<Response> {
  const chosen = chooseRepresentation(facts, file, { codings: edgeSafeCodings })
  if (!chosen) return status(404)
  const { status: code, headers: fields, body: wanted } = answer(facts, file, chosen, Date.now(), as)
  const headers = new Headers(fields)
  if (!wanted) return respond(null, code, headers)
  // A fresh request: the binding must neither see the visitor's conditionals nor negotiate itself.
  const url = new URL(`/${wanted.path.split('/').map(encodeURIComponent).join('/')}`, request.url)
  const stored = await env.ASSETS.fetch(new Request(url.toString()))
  if (!stored.ok || !stored.body) return status(stored.status === 404 ? 404 : 502)
  let body: ReadableStream<Uint8Array> = stored.body
  if (wanted.decode) body = body.pipeThrough(new DecompressionStream('gzip') as TransformStream<Uint8Array, Uint8Array>)
  else if (wanted.range) body = body.pipeThrough(slice(wanted.range))
  // The stored body's length is known to the runtime; a decoded or cut one is given its length.
  if (wanted.decode || wanted.range) body = withLength(body, headers)
  return respond(body, code, headers)
}

/** Gives the body a known length: Workers' FixedLengthStream sends Content-Length instead of chunks. */
function withLength(body: ReadableStream<Uint8Array>, headers: Headers): ReadableStream<Uint8Array> {
  const Fixed = (globalThis as { FixedLengthStream?: FixedLengthStreamConstructor }).FixedLengthStream
  const length = headers.get('content-length')
  if (!Fixed || length === null) return body
  headers.delete('content-length')
  return body.pipeThrough(new Fixed(Number(length)))
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

function status(code: number, extra: Record<string, string> = {}): Response {
  return new Response(null, { status: code, headers: { 'X-Content-Type-Options': 'nosniff', ...extra } })
}
