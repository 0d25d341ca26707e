// Raw HTTP for `verifySite`: node:http(s), not fetch, because fetch decodes bodies and hides
// what the server actually sent.
import { type Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https'

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
