// Raw requests (not fetch, which decodes bodies and merges headers): the suites must see the
// exact headers and bytes a server sends. One `get()` for both transports, picked by the URL:
// `http:` is HTTP/1.1 over node:http; `https:` is HTTP/2 over TLS with the run's CA, to
// TLS_HOST (connected to 127.0.0.1, SNI and :authority the name), as browsers reach a site in
// production. A server that does not offer h2 in ALPN fails the request.

import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { type ClientHttp2Session, connect, constants } from 'node:http2'
import { connect as tlsConnect } from 'node:tls'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'
import { TLS_HOST, tlsFiles } from './tls.ts'

export interface RawResponse {
  status: number
  /** Lower-case name -> every value, in order. */
  headers: Map<string, string[]>
  body: Buffer
  /** The HTTP version the response came over: `1.1` or `2`. */
  httpVersion: '1.1' | '2'
  /** The one value of a header, or undefined; throws when sent more than once. */
  one(name: string): string | undefined
}

export function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new URL(url).protocol === 'https:' ? getH2(url, headers, method) : getH1(url, headers, method)
}

function response(status: number, raw: string[], body: Buffer, httpVersion: '1.1' | '2'): RawResponse {
  const map = new Map<string, string[]>()
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    if (name.startsWith(':')) continue
    map.set(name, [...(map.get(name) ?? []), raw[i + 1]!])
  }
  return {
    status,
    headers: map,
    body,
    httpVersion,
    one(name) {
      const values = map.get(name.toLowerCase())
      if (values && values.length > 1) throw new Error(`${name} sent ${values.length} times: ${values.join(' | ')}`)
      return values?.[0]
    },
  }
}

function getH1(url: string, headers: Record<string, string>, method: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve(response(res.statusCode ?? 0, res.rawHeaders, Buffer.concat(chunks), '1.1')))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** One HTTP/2 session per origin, reused like a browser's; closed when the worker exits. */
const sessions = new Map<string, ClientHttp2Session>()
let ca: Buffer | undefined

function session(origin: URL): ClientHttp2Session {
  const key = origin.origin
  const open = sessions.get(key)
  if (open && !open.closed && !open.destroyed) return open
  ca ??= readFileSync(tlsFiles().ca)
  const port = Number(origin.port || 443)
  const created = connect(key, {
    createConnection: () =>
      tlsConnect({ host: '127.0.0.1', port, servername: origin.hostname, ca, ALPNProtocols: ['h2'] }),
  })
  // A server restarted on the same port (a redeploy) ends the session: the next request opens one.
  for (const event of ['error', 'close', 'goaway']) created.on(event, () => sessions.delete(key))
  created.unref()
  sessions.set(key, created)
  return created
}

function getH2(url: string, headers: Record<string, string>, method: string): Promise<RawResponse> {
  const target = new URL(url)
  if (target.hostname !== TLS_HOST) throw new Error(`HTTPS requests go to ${TLS_HOST}, not ${target.hostname}`)
  return new Promise((resolve, reject) => {
    const client = session(target)
    const req = client.request({
      [constants.HTTP2_HEADER_METHOD]: method,
      [constants.HTTP2_HEADER_PATH]: `${target.pathname}${target.search}`,
      ...headers,
    })
    req.on('error', reject)
    req.on('response', (_headers, _flags, raw: string[]) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        if (client.alpnProtocol !== 'h2') return reject(new Error(`${url}: ALPN gave ${client.alpnProtocol}, not h2`))
        resolve(response(Number(_headers[':status']), raw, Buffer.concat(chunks), '2'))
      })
    })
    req.end()
  })
}

/** Decodes a body by its Content-Encoding (none, gzip, br, zstd). */
export function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding) {
    case undefined:
      return body
    case 'gzip':
      return gunzipSync(body)
    case 'br':
      return brotliDecompressSync(body)
    case 'zstd':
      return zstdDecompressSync(body)
    default:
      throw new Error(`unexpected Content-Encoding ${encoding}`)
  }
}
