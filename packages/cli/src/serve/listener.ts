/**
 * `preencode serve`'s server: Node's http (or, given a certificate, an http2 secure server that
 * also speaks HTTP/1.1) in front of `createPreencodeHandler`. The request is handed over as a
 * Fetch `Request`, the `Response` written back as it is (the stored bytes, never compressed
 * again); a request the handler leaves (no such file, another method) gets a plain 404 or 405.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createSecureServer, type Http2ServerRequest, type Http2Session, type SecureServerOptions } from 'node:http2'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { PreencodeHandler } from '@preencode/server-config'
import {
  acceptError,
  applyTimeouts,
  type Connections,
  closeGracefully,
  DEFAULT_SERVE_LIMITS,
  http2Settings,
  type ServeLimits,
} from './limits.js'

export interface ListenOptions {
  host: string
  port: number
  /** PEM certificate (chain) and key: HTTPS with HTTP/2 and HTTP/1.1. */
  tls?: { cert: Buffer; key: Buffer }
  /** The limits on every client (`limits.ts`); default `DEFAULT_SERVE_LIMITS`. */
  limits?: Partial<ServeLimits>
}

export interface Listening {
  /** `http://127.0.0.1:8080/` — the port the system gave for port 0. */
  url: string
  /** Stops accepting, lets answers in flight finish within the grace time, then closes the rest. */
  close(): Promise<void>
  /** Closes every connection at once. */
  destroy(): void
}

/** Bodies up to this size are written in one piece. */
const WHOLE_BODY_BYTES = 64 * 1024

type NodeRequest = IncomingMessage | Http2ServerRequest
/** What both responses (http and http2 compatibility) offer that is used here. */
type NodeResponse = Pick<ServerResponse, 'headersSent' | 'end' | 'destroy'> &
  NodeJS.WritableStream & { writeHead(status: number, headers: Record<string, string>): unknown }

/**
 * The path and query of a request target: origin-form as sent (`//a` is a path, not a host),
 * absolute-form (`http://host/a`, what proxies send) by its path.
 */
function targetOf(url: string | undefined): string | undefined {
  if (url === undefined || url.startsWith('/')) return url ?? '/'
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return undefined
  }
}

/** The Fetch request for a Node one, or undefined for a target that is not a path. */
function requestOf(req: NodeRequest, origin: string): Request | undefined {
  const target = targetOf(req.url)
  if (target === undefined) return undefined
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith(':') || value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  return new Request(`${origin}${target}`, { method: req.method ?? 'GET', headers })
}

function plain(res: NodeResponse, status: number, extra: Record<string, string> = {}): void {
  const text = status === 405 ? 'Method Not Allowed\n' : 'Not Found\n'
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  })
  res.end(text)
}

/** A Node request listener that answers with `handler`. */
function nodeListener(handler: PreencodeHandler, origin: () => string) {
  return (req: NodeRequest, res: NodeResponse): void => {
    const answer = async (): Promise<void> => {
      const method = req.method ?? 'GET'
      if (method !== 'GET' && method !== 'HEAD') return plain(res, 405, { Allow: 'GET, HEAD' })
      const request = requestOf(req, origin())
      const response = request && (await handler(request))
      if (!response) return plain(res, 404)
      const headers: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        headers[name] = value
      })
      res.writeHead(response.status, headers)
      if (!response.body) {
        res.end()
        return
      }
      // A small body whole (a web stream piped costs more than its bytes), a large one streamed.
      if (Number(headers['content-length'] ?? Number.NaN) <= WHOLE_BODY_BYTES) {
        res.end(Buffer.from(await response.arrayBuffer()))
        return
      }
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res)
    }
    answer().catch(() => {
      // A client gone mid-body, or a file unreadable: nothing more can be said on this response.
      if (!res.headersSent) plain(res, 404)
      else res.destroy()
    })
  }
}

/**
 * HTTP/2 with HTTP/1.1 beside it. A field value with spaces around it (` gzip ;q=1.0 `) is read,
 * as nginx, Apache and Caddy read it: nghttp2 would drop the whole field otherwise (RFC 9113
 * §8.2.1 allows either), and a dropped Accept-Encoding gets the original.
 */
function secureOptions(tls: NonNullable<ListenOptions['tls']>, limits: ServeLimits): SecureServerOptions {
  return {
    ...tls,
    allowHTTP1: true,
    strictFieldWhitespaceValidation: false,
    settings: http2Settings(limits),
  } as SecureServerOptions
}

/** Starts the server; rejects with the system's error (EADDRINUSE, EACCES, a bad key). */
export function listen(handler: PreencodeHandler, options: ListenOptions): Promise<Listening> {
  return new Promise((done, fail) => {
    let origin = ''
    const listener = nodeListener(handler, () => origin)
    const limits = { ...DEFAULT_SERVE_LIMITS, ...options.limits }
    const server = options.tls
      ? createSecureServer(secureOptions(options.tls, limits), (req, res) =>
          listener(req, res as unknown as NodeResponse),
        )
      : createServer((req, res) => listener(req, res))
    applyTimeouts(server, limits)
    const open: Connections = { sockets: new Set(), sessions: new Set() }
    server.on('connection', (socket: { destroy(): void; once(event: 'close', f: () => void): void }) => {
      open.sockets.add(socket)
      socket.once('close', () => open.sockets.delete(socket))
    })
    server.on('session', (session: Http2Session) => {
      open.sessions.add(session)
      session.once('close', () => open.sessions.delete(session))
    })
    server.once('error', fail)
    server.listen(options.port, options.host, () => {
      server.off('error', fail)
      server.on('error', acceptError)
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : options.port
      const host = options.host.includes(':') ? `[${options.host}]` : options.host
      origin = `${options.tls ? 'https' : 'http'}://${host}:${port}`
      done({
        url: `${origin}/`,
        close: () => closeGracefully(server, open, limits.graceMs),
        destroy: () => {
          for (const socket of open.sockets) socket.destroy()
        },
      })
    })
  })
}
