// Shared by the Cloudflare Worker tests: the static-assets binding over a folder, and a request
// as Cloudflare's edge hands it to a Worker.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { WorkerEnv } from '../../src/cloudflare/runtime.js'

/** The binding: the stored bytes of a path under `root`, 404 otherwise; counts requests. */
export function assetsOf(root: string): WorkerEnv & { requested: string[] } {
  const requested: string[] = []
  return {
    requested,
    ASSETS: {
      async fetch(request) {
        const path = decodeURIComponent(new URL(request.url).pathname).slice(1)
        requested.push(path)
        try {
          return new Response(await readFile(join(root, path)))
        } catch {
          return new Response(null, { status: 404 })
        }
      },
    },
  }
}

/** A request as the edge hands it to a Worker: Accept-Encoding rewritten, the visitor's in `cf`. */
export function edgeRequest(url: string, visitor: string | undefined, headers: Record<string, string> = {}): Request {
  const request = new Request(url, { headers: { ...headers, 'accept-encoding': 'br, gzip' } })
  Object.defineProperty(request, 'cf', { value: { clientAcceptEncoding: visitor ?? '' } })
  return request
}
