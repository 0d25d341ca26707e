// Raw HTTP over node:http (not fetch, which decodes bodies and merges headers): the suite must
// see the exact headers and bytes a server sends.
import { request } from 'node:http'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'

export interface RawResponse {
  status: number
  /** Lower-case name -> every value, in order. */
  headers: Map<string, string[]>
  body: Buffer
  /** The one value of a header, or undefined; throws when sent more than once. */
  one(name: string): string | undefined
}

export function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const map = new Map<string, string[]>()
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase()
          map.set(name, [...(map.get(name) ?? []), res.rawHeaders[i + 1]!])
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: map,
          body: Buffer.concat(chunks),
          one(name) {
            const values = map.get(name.toLowerCase())
            if (values && values.length > 1)
              throw new Error(`${name} sent ${values.length} times: ${values.join(' | ')}`)
            return values?.[0]
          },
        })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
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
