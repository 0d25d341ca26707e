// verifySite({ cache: true }) against a node:http origin for the fixture, alone (passes) and
// behind two toy caches: one keyed on the URL only (a coding stored for another request) and one
// that rewrites Accept-Encoding to gzip (strips br and zstd). The real thing, Varnish with the
// generated and planted-fault VCLs, is e2e/cache/verify.spec.ts.

import { readFile } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { join } from 'node:path'
import type { Manifest, ManifestFile } from '@preencode/core'
import { negotiate, verifySite } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFixtureSite } from '../fixture.js'

type Front = 'none' | 'url-only-cache' | 'gzip-only'

interface Answer {
  status: number
  headers: Record<string, string>
  body: Buffer
}

let site: { root: string; manifest: Manifest; remove: () => Promise<void> }
const servers: Server[] = []

beforeAll(async () => {
  const dir = await tempDir('verify-cache')
  site = { root: dir.path, manifest: await buildFixtureSite(dir.path), remove: dir.remove }
})
afterAll(async () => {
  for (const s of servers) s.close()
  await site?.remove()
})

/** What a correct origin answers (negotiate() over the file's variants). */
async function origin(url: URL, headers: IncomingHttpHeaders): Promise<Answer> {
  let path = decodeURIComponent(url.pathname.slice(1))
  if (path === '' || path.endsWith('/')) path += 'index.html'
  const file: ManifestFile | undefined = site.manifest.files.find((f) => f.path === path)
  if (!file) return { status: 404, headers: {}, body: Buffer.alloc(0) }
  const order = file.variants.map((v) => v.encoding)
  const coding = negotiate(headers['accept-encoding'], order)
  const variant = file.variants.find((v) => v.encoding === coding)
  const body = await readFile(join(site.root, variant?.path ?? file.path))
  const out: Record<string, string> = { 'content-type': file.contentType, 'content-length': String(body.length) }
  if (variant) out['content-encoding'] = variant.encoding
  if (file.variants.length > 0) out.vary = 'Accept-Encoding'
  return { status: 200, headers: out, body }
}

async function start(front: Front): Promise<string> {
  const stored = new Map<string, Answer>()
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url!, 'http://x')
      const headers = { ...req.headers }
      if (front === 'gzip-only' && headers['accept-encoding']) headers['accept-encoding'] = 'gzip'
      let answer = front === 'url-only-cache' ? stored.get(url.href) : undefined
      if (!answer) {
        answer = await origin(url, headers)
        if (front === 'url-only-cache') stored.set(url.href, answer)
      }
      res.writeHead(answer.status, answer.headers).end(answer.body)
    })()
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`
}

const lines = (result: Awaited<ReturnType<typeof verifySite>>): string[] => result.failures.flatMap((c) => c.problems)

describe('verifySite({ cache: true })', () => {
  it('passes a correct origin, and runs the sequences on fresh URLs', async () => {
    const result = await verifySite(await start('none'), site.manifest, site.root, { cache: true })
    expect(lines(result)).toEqual([])
    const sequences = result.checks.filter((c) => c.url.includes('preencode-verify='))
    expect(sequences.length).toBeGreaterThan(0)
    // br first, gzip, none, zstd, br again: in that order on one URL.
    const first = sequences.filter((c) => c.url === sequences[0]!.url).map((c) => c.acceptEncoding)
    expect(first).toEqual(['br', 'gzip', undefined, 'zstd', 'br'])
  })

  it('names a cache that keys on the URL only: a coding stored for another request', async () => {
    const result = await verifySite(await start('url-only-cache'), site.manifest, site.root, { cache: true })
    expect(lines(result)).toContainEqual(
      expect.stringMatching(
        /^coding stored for another request: asked with "gzip", got the br the first request was given/,
      ),
    )
    expect(lines(result).some((l) => l.startsWith('strips'))).toBe(false)
  })

  it('names a cache that rewrites Accept-Encoding to gzip: strips br and zstd', async () => {
    const found = lines(await verifySite(await start('gzip-only'), site.manifest, site.root, { cache: true }))
    expect(found).toContainEqual(expect.stringMatching(/^strips br: asked for br only, got gzip/))
    expect(found).toContainEqual(expect.stringMatching(/^strips zstd: asked for zstd only, got gzip/))
    expect(found.some((l) => l.startsWith('coding stored'))).toBe(false)
  })

  it('without cache: true runs no sequences', async () => {
    const result = await verifySite(await start('url-only-cache'), site.manifest, site.root)
    expect(result.checks.some((c) => c.url.includes('preencode-verify='))).toBe(false)
  })
})
