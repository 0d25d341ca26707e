/**
 * The limits `preencode serve` puts on every client, so that one connection cannot starve the
 * others (issue 35: 700 stalled HTTP/2 streams held 700 file handles, with no stream limit and no
 * timeout; HTTP/1.1 responses never read held their handles for minutes), and its graceful stop.
 * Each limit and its default is named in docs/cli.md and docs/servers/javascript.md.
 */
import type { Server as HttpServer } from 'node:http'
import { constants, type Http2SecureServer, type Http2Session, type Http2Stream } from 'node:http2'

/** The limits of `preencode serve`'s server. */
export interface ServeLimits {
  /** HTTP/2: streams one connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS). */
  maxStreams: number
  /** HTTP/2: a connection with no frame either way for this long is closed. */
  idleMs: number
  /**
   * A response whose client takes no byte for this long is ended: the HTTP/2 stream reset, the
   * HTTP/1.1 connection closed (Node's `server.timeout`). Its file handle is closed with it.
   */
  sendTimeoutMs: number
  /** HTTP/1.1: the request's headers must arrive within this (Node's `headersTimeout`). */
  headersTimeoutMs: number
  /** HTTP/1.1: the whole request must arrive within this (Node's `requestTimeout`). */
  requestTimeoutMs: number
  /** On SIGTERM or SIGINT: answers in flight have this long to finish before their connections are closed. */
  graceMs: number
}

/** The defaults (nginx's `http2_max_concurrent_streams` is 128, its `send_timeout` 60 s). */
export const DEFAULT_SERVE_LIMITS: Readonly<ServeLimits> = Object.freeze({
  maxStreams: 100,
  idleMs: 60_000,
  sendTimeoutMs: 30_000,
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 30_000,
  graceMs: 10_000,
} satisfies ServeLimits)

/** The HTTP/2 settings that carry the limits (given to `createSecureServer`). */
export function http2Settings(limits: ServeLimits): { maxConcurrentStreams: number } {
  return { maxConcurrentStreams: limits.maxStreams }
}

/** Applies the timeouts to a server (http, or http2 with HTTP/1.1 beside it). */
export function applyTimeouts(server: HttpServer | Http2SecureServer, limits: ServeLimits): void {
  // HTTP/1.1 sockets (the http2 server hands its HTTP/1.1 connections to http's own code).
  server.setTimeout(limits.sendTimeoutMs)
  // Node checks the header and request timeouts on an interval (30 s by default): a quarter of
  // the shorter keeps them near what they say. Read when the server starts listening.
  Object.assign(server, {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4),
  })
  if (!('updateSettings' in server)) return
  server.on('session', (session: Http2Session) => {
    session.setTimeout(limits.idleMs, () => session.destroy())
  })
  server.on('stream', (stream: Http2Stream) => {
    stream.setTimeout(limits.sendTimeoutMs, () => stream.close(constants.NGHTTP2_CANCEL))
  })
}

/**
 * A listening server's errors are those of accepting a connection. Out of file handles, libuv
 * closes the connections waiting and may report EMFILE/ENFILE: the server goes on (and answers
 * again once handles are free) instead of ending the process, as Node does for an error nobody
 * listens to. Anything else is said in one line on stderr.
 */
export function acceptError(error: NodeJS.ErrnoException): void {
  if (error.code === 'EMFILE' || error.code === 'ENFILE' || error.code === 'ECONNABORTED') return
  process.stderr.write(`preencode serve: accepting a connection failed: ${error.message}\n`)
}

/** How often a stopping server closes the HTTP/1.1 connections whose answers have ended. */
const SWEEP_MS = 200

/** What a graceful stop needs of the open connections. */
export interface Connections {
  /** Every socket (HTTP/1.1) and HTTP/2 session open now. */
  sockets: Set<{ destroy(): void }>
  sessions: Set<Http2Session>
}

/**
 * Stops accepting, lets the answers in flight finish (idle HTTP/1.1 connections closed at once,
 * HTTP/2 sessions sent GOAWAY), and closes what is left after `graceMs`. Resolves when every
 * connection is closed.
 */
export function closeGracefully(
  server: HttpServer | Http2SecureServer,
  open: Connections,
  graceMs: number,
): Promise<void> {
  return new Promise((closed) => {
    // A keep-alive connection whose answer ends goes idle: closed then, not after its keep-alive time.
    const sweep = setInterval(() => {
      if ('closeIdleConnections' in server) server.closeIdleConnections()
    }, SWEEP_MS)
    const timer = setTimeout(() => {
      for (const socket of open.sockets) socket.destroy()
    }, graceMs)
    sweep.unref()
    timer.unref()
    server.close(() => {
      clearInterval(sweep)
      clearTimeout(timer)
      closed()
    })
    for (const session of open.sessions) session.close()
  })
}
