// Raw HTTP for `verifySite`: node:http(s), not fetch, because fetch decodes bodies and hides
// what the server actually sent.
import { type Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { ManifestDelta } from '@preencode/core/internal'
import { deltaRequestHeaders } from './deltas.js'

export interface Agents {
  http: HttpAgent
  https: HttpsAgent
}

/** GET `url` with `acceptEncoding` (undefined: no header) and `extra` headers; the raw body. */
export function get(
  url: URL,
  acceptEncoding: string | undefined,
  timeoutMs: number,
  agents: Agents,
  extra: Record<string, string> = {},
): Promise<{ response: IncomingMessage; body: Buffer }> {
  return new Promise((done, reject) => {
    const headers: Record<string, string> = { ...extra }
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const req = send(
      url,
      { method: 'GET', headers, agent: url.protocol === 'https:' ? agents.https : agents.http, timeout: timeoutMs },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => done({ response, body: Buffer.concat(chunks) }))
        response.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.on('error', reject)
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
  timeoutMs: number,
  agents: Agents,
): Promise<{ response: IncomingMessage; body: Buffer; seen: AnswerHeaders }> {
  const { response, body } = delta
    ? await get(url, undefined, timeoutMs, agents, deltaRequestHeaders(delta))
    : await get(url, acceptEncoding, timeoutMs, agents)
  const seen: AnswerHeaders = {
    status: response.statusCode ?? 0,
    contentEncoding: headerValues(response, 'content-encoding').join(', ') || undefined,
    contentType: response.headers['content-type'],
    vary: headerValues(response, 'vary').join(', ') || undefined,
  }
  return { response, body, seen }
}
