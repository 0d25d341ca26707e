// The static-host conventions (issue 36, docs/static-host-conventions.md), on every server the
// serving suite runs: clean URLs (`/contact` is `contact.html`, with its variants, Vary and cache
// policy, the query kept), the site's 404.html with status 404 (compressed like any page), and
// the opt-in SPA fallback (a second server of the same kind, started with `spa: true`).
import { createHash } from 'node:crypto'
import type { ManifestFile } from '@preencode/core'
import { hasServingException, expectedCoding as specCoding } from '../../packages/server-config/src/exceptions.js'
import { ONLY } from '../harness/applies.ts'
import { expect, type Site, test } from '../harness/fixtures.ts'
import { decode, get, type RawResponse } from '../harness/http.ts'
import { type ServerKind, startServer } from '../harness/servers.ts'
import { CLEAN_PAGES, NOT_FOUND_PAGE } from '../harness/site.ts'

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex')
const norm = (value: string | undefined): string | undefined => value?.toLowerCase().replace(/\s+/g, '')
const CHROMIUM = 'gzip, deflate, br, zstd'

function fileOf(site: Site, path: string): ManifestFile {
  const file = site.manifest.files.find((f) => f.path === path)
  if (!file) throw new Error(`${path} is not in the site`)
  return file
}

/** Every header the page `file` is sent with: its coding, type, one Vary, its Cache-Control, nosniff, the bytes. */
function expectPage(res: RawResponse, kind: ServerKind, site: Site, file: ManifestFile, header: string, where: string) {
  const coding = specCoding(kind.split('-')[0]!, site.manifest, header, file)
  expect(res.one('content-encoding') ?? 'identity', `Content-Encoding of ${where}`).toBe(coding)
  expect(norm(res.one('content-type')), `Content-Type of ${where}`).toBe(norm(file.contentType))
  const vary = (res.headers.get('vary') ?? []).flatMap((v) => v.split(',')).map((t) => t.trim().toLowerCase())
  expect(
    vary.filter((t) => t === 'accept-encoding'),
    `one Vary: Accept-Encoding on ${where}`,
  ).toHaveLength(1)
  expect(res.one('cache-control'), `Cache-Control of ${where}`).toBe(file.cacheControl)
  expect(res.one('x-content-type-options'), where).toBe('nosniff')
  expect(sha256(decode(res.body, res.one('content-encoding'))), `decoded body of ${where}`).toBe(file.sha256)
}

test.describe('static-host conventions', () => {
  test('clean URLs: /contact is contact.html, with its variants, the query kept', async ({
    server,
    site,
    serverKind,
    keepOriginals,
  }) => {
    const headers = keepOriginals ? ['br', CHROMIUM, 'gzip', 'identity'] : ['br', CHROMIUM, 'gzip']
    for (const path of CLEAN_PAGES) {
      const file = fileOf(site, path)
      expect(file.variants.length, `${path} has variants`).toBe(3)
      const clean = `/${path.replace(/\.html$/, '')}`
      for (const url of [clean, `${clean}?x=1&y=%20z`, `/${path}`]) {
        for (const header of headers) {
          const res = await get(server.url + url, { 'accept-encoding': header })
          expect(res.status, `${url} with ${header}`).toBe(200)
          expectPage(res, serverKind, site, file, header, `${url} with ${header}`)
        }
      }
    }
  })

  test("a missing path gets the site's 404.html with status 404, compressed like any page", {
    tag: ONLY.notFoundPage,
  }, async ({ server, site, serverKind, keepOriginals }) => {
    const file = fileOf(site, NOT_FOUND_PAGE)
    expect(file.variants.length).toBe(3)
    // keepOriginals: false leaves only variants of 404.html: a client taking none is the servers' limit.
    const headers = keepOriginals ? ['br', CHROMIUM, 'zstd', 'identity'] : ['br', CHROMIUM, 'zstd']
    for (const url of ['/missing', '/missing?x=1', '/no/such/page/', '/assets/missing.js', '/contact/more']) {
      for (const header of headers) {
        const res = await get(server.url + url, { 'accept-encoding': header })
        expect(res.status, `${url} with ${header}`).toBe(404)
        expectPage(res, serverKind, site, file, header, `${url} with ${header}`)
      }
    }
    if (!keepOriginals) {
      // Only variants of 404.html on disk: a client taking no coding never gets one of them; the
      // page decoded, or (a named exception) the server's plain 404.
      const res = await get(`${server.url}/missing`, { 'accept-encoding': 'identity' })
      expect(res.status).toBe(404)
      expect(res.one('content-encoding'), 'no coding for a client that takes none').toBeUndefined()
      if (!hasServingException(serverKind.split('-')[0]!, 'notFoundPageNeedsOriginal'))
        expect(sha256(res.body)).toBe(file.sha256)
    }
    const head = await get(`${server.url}/missing`, { 'accept-encoding': 'br' }, 'HEAD')
    expect(head.status).toBe(404)
    expect(head.body.length).toBe(0)
  })

  test('a directory without its slash is still redirected, not taken for a clean URL', async ({ server }) => {
    const res = await get(`${server.url}/about?x=1`, { 'accept-encoding': 'br' })
    expect([301, 308]).toContain(res.status)
    expect(new URL(res.one('location') ?? '', server.url).href).toBe(`${server.url}/about/?x=1`)
  })
})

test.describe('SPA fallback', { tag: ONLY.spa }, () => {
  test('spa: an unknown extensionless path gets /index.html with 200; a missing asset does not', async ({
    site,
    serverKind,
    tls,
  }) => {
    const spa = await startServer(serverKind, site.manifest, site.root, { tls, conventions: { spa: true } })
    try {
      const index = fileOf(site, 'index.html')
      for (const url of ['/app/route', '/users/42?tab=1', '/deep/link/here']) {
        for (const header of ['br', CHROMIUM]) {
          const res = await get(spa.url + url, { 'accept-encoding': header })
          expect(res.status, `${url} with ${header}`).toBe(200)
          expectPage(res, serverKind, site, index, header, `${url} with ${header}`)
        }
      }
      // Clean URLs come first; a missing asset is not the app's page.
      const contact = await get(`${spa.url}/contact`, { 'accept-encoding': 'br' })
      expect(sha256(decode(contact.body, contact.one('content-encoding')))).toBe(fileOf(site, 'contact.html').sha256)
      const asset = await get(`${spa.url}/assets/missing.js`, { 'accept-encoding': 'br' })
      expect(asset.status).toBe(404)
      expect(sha256(decode(asset.body, asset.one('content-encoding')))).not.toBe(index.sha256)
    } finally {
      await spa.stop()
    }
  })
})
