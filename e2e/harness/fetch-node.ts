// The Fetch handler (`createPreencodeHandler`) under Node, as a user would run it with a few
// lines: node:http turns the request into a Fetch `Request`, the `Response` goes back as it is,
// and what the handler leaves (`undefined`) is the app's — here a 404.
import { createServer } from 'node:http'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import type { Manifest } from '@preencode/core'
import { type ConventionOptions, createPreencodeHandler } from '@preencode/server-config'
import { listenOnLoopback, type ServingProcess } from './node-server.ts'

export async function startFetchHandler(
  root: string,
  port: number,
  manifest?: Manifest,
  conventions: ConventionOptions = {},
): Promise<ServingProcess> {
  let log = ''
  const handler = createPreencodeHandler(root, { ...conventions, ...(manifest ? { manifest } : {}) })
  const origin = `http://127.0.0.1:${port}`
  const server = createServer((req, res) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers))
      for (const item of [value ?? []].flat()) headers.append(name, item)
    handler(new Request(`${origin}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers }))
      .then(async (response) => {
        if (!response) {
          res.writeHead(404).end()
          return
        }
        res.writeHead(response.status, Object.fromEntries(response.headers))
        if (!response.body) res.end()
        else await pipeline(Readable.fromWeb(response.body as NodeReadableStream), res)
      })
      .catch((error: unknown) => {
        log += `${String((error as Error).stack ?? error)}\n`
        if (res.headersSent) res.destroy()
        else res.writeHead(500).end()
      })
  })
  return listenOnLoopback(server, port, () => log)
}
