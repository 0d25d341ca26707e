// Variants of equal size (issue 7, case 5): a multi-page site whose gzip and zstd variants are
// exactly as large, compressed by the real engine and served by every real server with its
// generated config. Every coding must still be served (a gzip-only client gets gzip), each
// representation must keep its own ETag (nginx, Apache and Caddy build it from mtime + size,
// so the writer moves the mtime of the second one by whole seconds), and `verifySite` passes.
import { createHash } from 'node:crypto'
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { compress as compressDirectory, encodeBuffer, type Manifest } from '@preencode/core'
import { verifySite } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get } from '../../../e2e/harness/http.ts'
import { type ServerKind, startServer } from '../../../e2e/harness/servers.ts'

const KINDS: ServerKind[] = ['nginx-stock', 'nginx-modules', 'apache-htaccess', 'apache-vhost', 'caddy', 'node']

/** A page of incompressible-ish text (base64 digests), where gzip and zstd come out close. */
function page(n: number): Buffer {
  let body = ''
  for (let i = 0; body.length < 1200 + n * 3; i++)
    body += createHash('sha256').update(`page ${n} ${i}`).digest('base64')
  return Buffer.from(
    `<!doctype html>\n<html><head><meta charset="utf-8"><title>Page ${n}</title></head>\n<body><p>${body}</p></body></html>\n`,
  )
}

/** Pages whose gzip and zstd variants, as the engine writes them today, have the same size. */
async function collidingPages(count: number): Promise<Buffer[]> {
  const found: Buffer[] = []
  for (let n = 0; n < 2000 && found.length < count; n++) {
    const data = page(n)
    const [gzip, zstd] = await Promise.all([
      encodeBuffer('gzip', data, 9, { path: 'x.html' }),
      encodeBuffer('zstd', data, 19, { path: 'x.html' }),
    ])
    if (gzip.byteLength === zstd.byteLength) found.push(data)
  }
  return found
}

let dir: { path: string; remove: () => Promise<void> }
let manifest: Manifest
const PAGES = ['index.html', 'a/index.html', 'b/index.html']

beforeAll(async () => {
  dir = await tempDir('equal-sizes')
  await chmod(dir.path, 0o755)
  const pages = await collidingPages(PAGES.length)
  expect(pages, 'pages whose gzip and zstd variants collide').toHaveLength(PAGES.length)
  for (const [i, path] of PAGES.entries()) {
    await mkdir(join(dir.path, path, '..'), { recursive: true })
    await writeFile(join(dir.path, path), pages[i]!)
  }
  ;({ manifest } = await compressDirectory(dir.path, { cache: false }))
}, 120_000)
afterAll(() => dir.remove())

describe('equal-size variants', () => {
  it('are all written, smallest first with zstd before gzip, the later one a whole second newer', async () => {
    for (const path of PAGES) {
      const file = manifest.files.find((f) => f.path === path)!
      expect(file.variants.map((v) => v.encoding)).toEqual(['br', 'zstd', 'gzip'])
      const [zstd, gzip] = [file.variants[1]!, file.variants[2]!]
      expect(zstd.size).toBe(gzip.size)
      const [zstdInfo, gzipInfo] = await Promise.all([stat(join(dir.path, zstd.path)), stat(join(dir.path, gzip.path))])
      expect(Math.round((gzipInfo.mtimeMs - zstdInfo.mtimeMs) / 1000)).toBe(1)
    }
  })

  describe.each(KINDS)('%s', (kind) => {
    it('serves every coding with its own ETag, and verify passes', async () => {
      const server = await startServer(kind, manifest, dir.path)
      try {
        for (const path of PAGES) {
          const url = `${server.url}/${path.replace(/index\.html$/, '')}`
          const tags = new Map<string, string | undefined>()
          for (const coding of ['gzip', 'zstd', 'br', 'identity']) {
            const res = await get(url, { 'accept-encoding': coding })
            expect(res.status, `${url} ${coding}`).toBe(200)
            expect(res.one('content-encoding') ?? 'identity', `${url} ${coding}`).toBe(coding)
            tags.set(coding, res.one('etag'))
          }
          expect(new Set(tags.values()).size, JSON.stringify([...tags])).toBe(4)
          const both = await get(url, { 'accept-encoding': 'gzip, zstd' })
          expect(both.one('content-encoding')).toBe('zstd')
        }
        const result = await verifySite(server.url, manifest, dir.path)
        expect(result.failures, JSON.stringify(result.failures.slice(0, 3))).toEqual([])
        expect(result.checks.length).toBeGreaterThan(0)
      } finally {
        await server.stop()
      }
    }, 60_000)
  })
})
