/**
 * A connect/express-compatible middleware (`(req, res, next)`, Node's http only) that serves a
 * preencode output directory by the serving specification (`http/spec.ts`: negotiation, deltas,
 * Vary, ETags per representation, preconditions, ranges, Cache-Control, nosniff) and does only
 * the I/O around it: the site on disk (`site/site.ts`: the manifest re-read when it changes, so a
 * rebuild or redeploy in place is followed without a restart; files it does not list as sirv
 * would serve them), and the bytes streamed from the file opened (a gzip variant decoded on the
 * fly for `keepOriginals: false`).
 *
 * A directory asked for without its trailing `/` is redirected to it (301), as by nginx, Apache
 * and Caddy; `/about` is `about.html` (clean URLs) and, with `spa`, an unknown extensionless path
 * the app's `index.html` (`http/conventions.ts`). Paths with no file of the site go to `next()`
 * (`fallthrough: false`: the site's `404.html`, status 404), so the middleware can sit in front of any other
 * handler; so do other methods and paths that do not decode. A dotfile or a file in a dot-folder
 * that the site has (the manifest, `.env`, `.git/`) is answered 404, as by every generated
 * config, never passed on to a handler that might serve it; a dot path the site does not have
 * is passed on (an app's own `/.auth/` route). `/.well-known/` is served.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { isValidHost } from '../http/host.js'
import { readRequest } from '../http/request.js'
import { isOutOfHandles, outOfHandlesAnswer } from '../site/handles.js'
import { type PreencodeMiddlewareOptions, type Resolved, servedSite } from '../site/site.js'

/** Bodies up to this size are read in one call; larger ones are streamed. */
const READ_WHOLE_BYTES = 64 * 1024

/** Connect's and Express's `next`: called when the request is not for a file of the site. */
export type NextFunction = (error?: unknown) => void
/** A Connect/Express middleware: answers the site's files, passes the rest to `next`. */
export type PreencodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void

/** A Node request's header by its lower-case name; a repeated one joined as one list. */
const headerOf =
  (req: IncomingMessage) =>
  (name: string): string | undefined => {
    const value = req.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }

/** Creates the middleware for a preencode output directory. */
export function createPreencodeMiddleware(root: string, options: PreencodeMiddlewareOptions = {}): PreencodeMiddleware {
  const { site, index } = servedSite(root, options)

  return (req, res, next) => {
    const pass = (error?: unknown): void => {
      if (res.headersSent) res.destroy(error instanceof Error ? error : undefined)
      else if (next) next(error)
      else {
        res.statusCode = error ? 500 : 404
        res.end()
      }
    }
    // A Host with path characters is no host (RFC 9112 §3.2): 400, as from the Fetch handler.
    if (!isValidHost(req.headers.host)) {
      res.statusCode = 400
      res.end()
      return
    }
    const request = readRequest(req.method ?? 'GET', req.url ?? '/', headerOf(req), index)
    if (request.kind !== 'site') return pass()
    site
      .answerFor(request.target, request.facts, request.location)
      .then((resolved) => (resolved ? send(resolved, res) : pass()))
      .catch((error: unknown) => (isOutOfHandles(error) && !res.headersSent ? busy(res) : pass(error)))
  }
}

/** Out of file handles: 503 with Retry-After (`site/handles.ts`), never a 404 or the app's answer. */
function busy(res: ServerResponse): void {
  const { status, headers, body } = outOfHandlesAnswer()
  res.writeHead(status, headers)
  res.end(body)
}

/** Writes the answer; streams the body from the handle opened (which the stream closes). */
async function send({ answer, handle }: Resolved, res: ServerResponse): Promise<void> {
  res.statusCode = answer.status
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value)
  const body = answer.body
  if (!body || !handle) {
    res.end()
    return
  }
  const length = Number(answer.headers['Content-Length'] ?? Number.NaN)
  if (!body.decode && length <= READ_WHOLE_BYTES) {
    // A small body in one read and one write: a read stream costs more than the bytes.
    const bytes = Buffer.allocUnsafe(length)
    try {
      const { bytesRead } = await handle.read(bytes, 0, length, body.range?.start ?? 0)
      // Cut short since it was opened (truncated in place): the connection ends, no short body kept alive.
      if (bytesRead === length) res.end(bytes)
      else res.destroy()
    } finally {
      await handle.close().catch(() => {})
    }
    return
  }
  const stream = handle.createReadStream(body.range ? { start: body.range.start, end: body.range.end } : {})
  if (body.decode) return pipeline(stream, createGunzip(), res)
  await pipeline(stream, res, { end: false })
  // A file truncated while sent ends short of its Content-Length: the connection is ended, not
  // kept alive for bytes that will never come (nor for the next request on it).
  if (stream.bytesRead < length) res.destroy()
  else res.end()
}
