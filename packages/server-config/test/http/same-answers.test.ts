// One specification, three servers: the Node middleware (over real HTTP), the Fetch handler and
// the Cloudflare Worker (called directly, the assets binding over the same folder) give the same
// status, headers and bytes for a matrix of requests — the Worker bar its one named exception
// (edgeSafeCodings: requests where it applies are left out here, exceptions.ts).
import type { Server } from 'node:http'
import { join } from 'node:path'
import { createPreencodeHandler, type PreencodeHandler } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { edgeSafeCodings } from '../../src/cloudflare/edge.js'
import { createWorker, type PreencodeWorker } from '../../src/cloudflare/runtime.js'
import { workerSiteData } from '../../src/cloudflare/site-data.js'
import { assetsOf } from '../cloudflare/helpers.ts'
import { buildFixtureSite } from '../fixture.ts'
import { get, serve } from '../node/helpers.ts'

const PATHS = [
  '/',
  '/about/',
  '/about',
  '/about?x=1',
  '/assets/main-Ab3dEf9h.js',
  '/assets/style-Qw3rTy12.css',
  '/data.json',
  '/download.tar.gz',
  '/small.txt',
  '/logo.png',
  '/missing.js',
]
const FUTURE = new Date(Date.UTC(2999, 0, 1)).toUTCString()
const REQUESTS: Record<string, string>[] = [
  {},
  { 'accept-encoding': 'gzip, deflate, br, zstd' },
  { 'accept-encoding': 'zstd' },
  { 'accept-encoding': 'gzip' },
  { 'accept-encoding': 'br' },
  { 'accept-encoding': 'identity' },
  { 'accept-encoding': 'identity;q=0' },
  { 'accept-encoding': '*' },
  { 'accept-encoding': 'zstd', range: 'bytes=5-20' },
  { 'accept-encoding': 'zstd', range: 'bytes=-7' },
  { 'accept-encoding': 'zstd', range: 'bytes=999999-' },
  { range: 'bytes=0-0,5-6' },
  { 'accept-encoding': 'zstd', 'if-none-match': '*' },
  { 'if-match': '"not-this-one"' },
  { 'if-modified-since': FUTURE },
  { 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' },
]
const HEADERS = [
  'location',
  'content-encoding',
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'vary',
  'etag',
  'last-modified',
  'cache-control',
  'use-as-dictionary',
  'x-content-type-options',
]

interface Seen {
  status: number
  headers: Record<string, string | undefined>
  body: string
}

const pick = (read: (name: string) => string | undefined): Record<string, string | undefined> =>
  Object.fromEntries(HEADERS.map((name) => [name, read(name)]))

async function fromResponse(response: Response | undefined): Promise<Seen | 'not served'> {
  if (!response || response.status === 404) return 'not served'
  const body = Buffer.from(await response.arrayBuffer()).toString('base64')
  return { status: response.status, headers: pick((n) => response.headers.get(n) ?? undefined), body }
}

let dir: { path: string; remove: () => Promise<void> }
const sites: {
  name: string
  port: number
  server: Server
  handler: PreencodeHandler
  worker: PreencodeWorker
  root: string
}[] = []

beforeAll(async () => {
  dir = await tempDir('same-answers')
  for (const keepOriginals of [true, false]) {
    const root = join(dir.path, keepOriginals ? 'keep' : 'nokeep')
    const manifest = await buildFixtureSite(root, { keepOriginals })
    const { server, port } = await serve(root)
    const worker = createWorker(workerSiteData(manifest, { index: 'index.html', hidden: [] }))
    sites.push({
      name: keepOriginals ? 'keep' : 'nokeep',
      port,
      server,
      handler: createPreencodeHandler(root),
      worker,
      root,
    })
  }
})
afterAll(async () => {
  for (const site of sites) site.server.close()
  await dir.remove()
})

describe('the middleware, the Fetch handler and the Worker answer alike', () => {
  it('for every path and request of the matrix, on a site with originals and one without', async () => {
    let compared = 0
    for (const site of sites) {
      const env = assetsOf(site.root)
      for (const path of PATHS) {
        for (const headers of REQUESTS) {
          const where = `${site.name} ${path} ${JSON.stringify(headers)}`
          const node = await get(site.port, path, headers)
          const viaMiddleware: Seen | 'not served' =
            node.status === 418 || node.status === 404
              ? 'not served'
              : {
                  status: node.status,
                  headers: pick((n) => node.headers[n] as string | undefined),
                  body: node.body.toString('base64'),
                }
          const request = new Request(`http://site.test${path}`, { headers })
          const viaHandler = await fromResponse(await site.handler(request))
          expect(viaHandler, `handler vs middleware: ${where}`).toEqual(viaMiddleware)
          const ae = headers['accept-encoding']
          if (edgeSafeCodings(ae, ['br', 'zstd', 'gzip']).length === 3) {
            const viaWorker = await fromResponse(await site.worker.fetch(request.clone(), env))
            expect(viaWorker, `Worker vs handler: ${where}`).toEqual(viaHandler)
          }
          compared++
        }
      }
    }
    expect(compared).toBe(2 * PATHS.length * REQUESTS.length)
  })
})
