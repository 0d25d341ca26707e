// What the middleware suites share: the middleware on a real node:http server on 127.0.0.1
// (a request it does not serve gets 418 "next"), and a raw GET that keeps the bytes as sent.
import { createServer, request, type Server } from 'node:http'
import type { Manifest } from '@preencode/core'
import { createPreencodeMiddleware } from '@preencode/server-config'

export interface Res {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** `method` (GET) `path` on 127.0.0.1:`port`, no agent, the body undecoded. */
export function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** The middleware for `root` (with `manifest` given, else read from disk) on a free port. */
export async function serve(root: string, manifest?: Manifest): Promise<{ server: Server; port: number }> {
  const middleware = createPreencodeMiddleware(root, manifest ? { manifest } : {})
  const server = createServer((req, res) =>
    middleware(req, res, () => {
      res.statusCode = 418
      res.end('next')
    }),
  )
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  return { server, port: typeof address === 'object' && address ? address.port : 0 }
}
