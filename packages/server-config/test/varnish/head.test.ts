// The generated VCL in front of a real varnishd (test-utils startVarnish) and a node:http origin
// that serves the fixture's variants and counts its requests: HEAD with a Cookie or an
// Authorization header (which Varnish's built-in VCL passes) must answer like GET — the same
// Content-Encoding, Content-Length and ETag — from one origin request, not a restart per coding
// (issue 30: Varnish drops Content-Encoding on such HEAD answers, and the VCL took that for a
// file without the variant).
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, readFile } from 'node:fs/promises'
import { createServer, request, type Server } from 'node:http'
import { join } from 'node:path'
import type { Manifest, ManifestFile } from '@preencode/core'
import { negotiate, varnishConfig } from '@preencode/server-config'
import { type StartedVarnish, startVarnish, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFixtureSite } from '../fixture.ts'

const VARNISHD = '/usr/sbin/varnishd'

let dir: { path: string; remove: () => Promise<void> }
let manifest: Manifest
let root: string
let origin: Server
let varnish: StartedVarnish | undefined
let originRequests = 0

/** A correct origin: negotiate() over the file's variants, smallest first, with ETags per variant. */
function serveOrigin(): Server {
  return createServer((req, res) => {
    originRequests++
    void (async () => {
      let path = decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1))
      if (path === '' || path.endsWith('/')) path += 'index.html'
      const file: ManifestFile | undefined = manifest.files.find((f) => f.path === path)
      if (!file) return res.writeHead(404).end()
      const order = [...file.variants].sort((a, b) => a.size - b.size).map((v) => v.encoding)
      const coding = negotiate(req.headers['accept-encoding'], order) ?? 'identity'
      const variant = file.variants.find((v) => v.encoding === coding)
      const body = await readFile(join(root, variant?.path ?? file.path))
      const headers: Record<string, string> = {
        'content-type': file.contentType,
        'content-length': String(body.length),
        etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`,
        'cache-control': 'public, max-age=60',
      }
      if (variant) headers['content-encoding'] = variant.encoding
      if (file.variants.length > 0) headers.vary = 'Accept-Encoding'
      res.writeHead(200, headers)
      res.end(req.method === 'HEAD' ? undefined : body)
    })()
  })
}

function ask(
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, string | string[] | undefined> }> {
  return new Promise((done, reject) => {
    const req = request(`${varnish!.url}${path}`, { method, headers }, (res) => {
      res.resume()
      res.on('end', () => done({ headers: res.headers }))
    })
    req.on('error', reject)
    req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')))
    req.end()
  })
}

beforeAll(async () => {
  dir = await tempDir('varnish-head')
  await chmod(dir.path, 0o755)
  root = join(dir.path, 'site')
  manifest = await buildFixtureSite(root)
  origin = serveOrigin()
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r))
  const address = origin.address()
  const port = typeof address === 'object' && address ? address.port : 0
  if (existsSync(VARNISHD)) varnish = await startVarnish(varnishConfig(manifest, { backend: `127.0.0.1:${port}` }))
})
afterAll(async () => {
  await varnish?.stop()
  origin?.close()
  await dir?.remove()
})

describe.skipIf(!existsSync(VARNISHD))('the generated VCL, HEAD with credentials', () => {
  it.each([
    ['Cookie', { cookie: 'session=1' }],
    ['Authorization', { authorization: 'Basic dTpw' }],
  ])(
    'HEAD with %s answers like GET, from one origin request',
    async (_, credentials) => {
      const files = ['html', 'js', 'css'].map(
        (ext) => manifest.files.find((f) => f.variants.length === 3 && f.path.endsWith(`.${ext}`))!,
      )
      for (const file of files) {
        for (const coding of ['br', 'zstd', 'gzip', 'gzip, deflate, br, zstd']) {
          const headers = { 'accept-encoding': coding, ...credentials }
          const get = await ask('GET', `/${file.path}`, headers)
          const before = originRequests
          const head = await ask('HEAD', `/${file.path}`, headers)
          const where = `HEAD /${file.path} with ${coding}`
          expect(originRequests - before, `origin requests for ${where}`).toBe(1)
          expect(get.headers['content-encoding'], `GET /${file.path} with ${coding}`).toBeDefined()
          for (const name of ['content-encoding', 'content-length', 'etag'])
            expect(head.headers[name], `${name} of ${where}`).toBe(get.headers[name])
        }
      }
    },
    60_000,
  )
})
