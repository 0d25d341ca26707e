// Raw HTTP for `verifySite`: node:http(s), not fetch, because fetch decodes bodies and hides
// what the server actually sent. Every request is bounded (issue 29): a whole answer, headers
// and body, must arrive within `timeoutMs` (a server that trickles a byte at a time never trips
// an idle timeout), the run's `signal` (its deadline) ends it at once, and a body is read only
// up to `maxBodyBytes`, counted as it arrives, then the connection is dropped.
import { type Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { ManifestDelta } from '@preencode/core'
import { deltaRequestHeaders } from './deltas.js'
import { type BodyDigest, bodyDigester } from './digest.js'

export interface Agents {
  http: HttpAgent
  https: HttpsAgent
}

/** How long and how much one request may take. */
export interface RequestBounds {
  /** Time for the whole answer, headers and body, in ms. */
  timeoutMs: number
  /** The most body bytes read; the rest is never downloaded. */
  maxBodyBytes: number
  /** The run's deadline (or another request's fatal failure): aborts at once. */
  signal: AbortSignal
}

/** A request that got no complete answer within its time: `verifySite` stops the run on it. */
export class StalledAnswer extends Error {
  override readonly name = 'StalledAnswer'
}

/** What a body the server sends may exceed an expected `size` by before verify stops reading. */
export function bodyLimit(size: number): number {
  return size + 1024 * 1024 + Math.ceil(size / 64)
}

/** A raw answer: its body's digest (of at most `maxBodyBytes`); `truncated` says the server sent more. */
export interface RawAnswer {
  response: IncomingMessage
  digest: BodyDigest
  truncated: boolean
}

/** GET `url` with `acceptEncoding` (undefined: no header) and `extra` headers; the body's digest. */
function get(
  url: URL,
  acceptEncoding: string | undefined,
  bounds: RequestBounds,
  agents: Agents,
  extra: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((done, reject) => {
    const headers: Record<string, string> = { ...extra }
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    let settled = false
    /** Set when verify itself dropped the connection at the body limit: the errors that follow are its own. */
    let truncated = false
    const finish = (error: Error | undefined, answer?: RawAnswer): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      bounds.signal.removeEventListener('abort', onAbort)
      if (error) {
        req.destroy()
        reject(error)
      } else done(answer!)
    }
    const onAbort = (): void => finish(bounds.signal.reason as Error)
    const timer = setTimeout(
      () => finish(new StalledAnswer(`no complete answer within ${bounds.timeoutMs / 1000} s`)),
      bounds.timeoutMs,
    )
    const req = send(
      url,
      { method: 'GET', headers, agent: url.protocol === 'https:' ? agents.https : agents.http },
      (response) => {
        const codings = headerValues(response, 'content-encoding')
          .join(',')
          .split(',')
          .map((t) => t.trim().toLowerCase())
          .filter(Boolean)
        const digester = bodyDigester(codings.length === 0 ? undefined : codings.join(', '), bounds.maxBodyBytes)
        let size = 0
        const done = (): void =>
          void digester.end().then((digest) => finish(undefined, { response, digest, truncated }), finish)
        response.on('data', (chunk: Buffer) => {
          if (truncated) return
          if (size + chunk.byteLength > bounds.maxBodyBytes) {
            digester.write(chunk.subarray(0, bounds.maxBodyBytes - size))
            truncated = true
            // Dropping the connection is the only way to stop a server that keeps sending.
            req.destroy()
            return done()
          }
          size += chunk.byteLength
          digester.write(chunk)
        })
        response.on('end', done)
        response.on('error', (error) => truncated || finish(error))
      },
    )
    if (bounds.signal.aborted) return onAbort()
    bounds.signal.addEventListener('abort', onAbort, { once: true })
    req.on('error', (error) => truncated || finish(error))
    req.end()
  })
}

export function headerValues(response: IncomingMessage, name: string): string[] {
  const values: string[] = []
  for (let i = 0; i < response.rawHeaders.length; i += 2) {
    if (response.rawHeaders[i]!.toLowerCase() === name) values.push(response.rawHeaders[i + 1]!)
  }
  return values
}

/** The headers of an answer that a check reports. */
export interface AnswerHeaders {
  status: number
  contentEncoding: string | undefined
  contentType: string | undefined
  /** Every Vary value, joined. */
  vary: string | undefined
}

/** One request of a check and what was found in its answer. */
export interface CheckedAnswer extends AnswerHeaders {
  url: string
  acceptEncoding: string | undefined
  /** Empty when everything matched. */
  problems: string[]
}

/**
 * GET `url` as a client asking for a coding (`acceptEncoding`) or, given `delta`, for that delta
 * with its dictionary; the raw answer and the headers a check reports.
 */
export async function ask(
  url: URL,
  acceptEncoding: string | undefined,
  delta: ManifestDelta | undefined,
  bounds: RequestBounds,
  agents: Agents,
): Promise<RawAnswer & { seen: AnswerHeaders }> {
  const { response, digest, truncated } = delta
    ? await get(url, undefined, bounds, agents, deltaRequestHeaders(delta))
    : await get(url, acceptEncoding, bounds, agents)
  const seen: AnswerHeaders = {
    status: response.statusCode ?? 0,
    contentEncoding: headerValues(response, 'content-encoding').join(', ') || undefined,
    contentType: response.headers['content-type'],
    vary: headerValues(response, 'vary').join(', ') || undefined,
  }
  return { response, digest, truncated, seen }
}

/** The problem of an answer whose body went past its limit (only a 200's body is checked). */
export function oversizeProblem(answer: RawAnswer, limit: number, size: number): string | undefined {
  if (!answer.truncated || answer.response.statusCode !== 200) return undefined
  return `body longer than ${limit} bytes, stopped reading (the manifest's file is ${size} bytes)`
}
