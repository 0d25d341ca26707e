/**
 * A connect/express-compatible middleware (`(req, res, next)`, Node's http only) that serves a
 * preencode output directory by the serving specification (`http/spec.ts`: negotiation, deltas,
 * Vary, ETags per representation, preconditions, ranges, Cache-Control, nosniff) and does only
 * the I/O around it: the site on disk (`site.ts`: the manifest re-read when it changes, so a
 * rebuild or redeploy in place is followed without a restart; files it does not list as sirv
 * would serve them), and the bytes streamed from the file opened (a gzip variant decoded on the
 * fly for `keepOriginals: false`).
 *
 * Paths with no file of the site go to `next()`, so the middleware can sit in front of any other
 * handler; so do other methods and paths that do not decode. A dotfile or a file in a dot-folder
 * that the site has (the manifest, `.env`, `.git/`) is answered 404, as by every generated
 * config, never passed on to a handler that might serve it; a dot path the site does not have
 * is passed on (an app's own `/.auth/` route). `/.well-known/` is served.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import type { Manifest } from '@preencode/core'
import { REQUEST_FACT_HEADERS, targetOf, type RequestFacts } from '../http/spec.js'
import { type Resolved, siteOnDisk } from './site.js'

export interface PreencodeMiddlewareOptions {
  /**
   * The manifest to serve by. When not given, `<root>/.preencode-manifest.json` is read on the
   * first request and read again whenever it changes on disk (a rebuild or a redeploy in place).
   */
  manifest?: Manifest
  /**
   * File served for a URL ending in `/`.
   * @default 'index.html'
   */
  index?: string
}

export type NextFunction = (error?: unknown) => void
export type PreencodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void

/** The facts of a Node request that the specification reads. */
export function nodeRequestFacts(req: IncomingMessage): RequestFacts {
  const headers: RequestFacts['headers'] = {}
  for (const name of REQUEST_FACT_HEADERS) {
    const value = req.headers[name]
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return { method: req.method ?? 'GET', headers }
}

/** The path of a Node request target: origin-form (`/a/b?q`) as is — `//a/b` is a path, not a host; absolute-form via URL. */
function pathnameOf(target: string): string | undefined {
  if (target.startsWith('/')) return target.replace(/[?#].*$/s, '')
  try {
    return new URL(target).pathname
  } catch {
    return undefined
  }
}

/** Creates the middleware for a preencode output directory. */
export function createPreencodeMiddleware(root: string, options: PreencodeMiddlewareOptions = {}): PreencodeMiddleware {
  const index = options.index ?? 'index.html'
  const site = siteOnDisk(root, { manifest: options.manifest })

  return (req, res, next) => {
    const pass = (error?: unknown): void => {
      if (res.headersSent) res.destroy(error instanceof Error ? error : undefined)
      else if (next) next(error)
      else {
        res.statusCode = error ? 500 : 404
        res.end()
      }
    }
    const pathname = pathnameOf(req.url ?? '/')
    const target = pathname === undefined ? undefined : targetOf(req.method ?? 'GET', pathname, index)
    if (!target || target.kind === 'pass') return pass()
    const facts = nodeRequestFacts(req)
    if (target.kind === 'hidden') {
      site
        .has(target.path, facts)
        .then((has) => (has ? notFound(res) : pass()))
        .catch(pass)
      return
    }
    site
      .resolve(target.path, facts)
      .then((resolved) => (resolved ? send(resolved, res) : pass()))
      .catch(pass)
  }
}

function notFound(res: ServerResponse): void {
  res.statusCode = 404
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.end()
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
  const stream = handle.createReadStream(body.range ? { start: body.range.start, end: body.range.end } : {})
  await (body.decode ? pipeline(stream, createGunzip(), res) : pipeline(stream, res))
}
