// The one negotiation suite every server and flavour passes (issue 3, "What it must show").
// Raw node:http requests check the true headers and bytes; Chromium checks the page runs.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ManifestFile } from '@preencode/core'
import type { Encoding } from '@preencode/server-config'
import {
  hasServingException,
  serverCoding,
  expectedCoding as specCoding,
} from '../../packages/server-config/src/exceptions.js'
import { EXPECTED } from '../../playground/src/markers.js'
import { ACCEPT_ENCODING_SPELLINGS } from '../harness/accept-encodings.ts'
import { ONLY } from '../harness/applies.ts'
import { expect, type Site, test } from '../harness/fixtures.ts'
import { decode, get, type RawResponse } from '../harness/http.ts'
import type { ServerKind } from '../harness/servers.ts'
import { BIG_ASSET, DOTFILES, ODD_NAME, PERCENT_NAMES, QUESTION_NAME, WELL_KNOWN } from '../harness/site.ts'
import { pageTransport } from '../harness/transport.ts'

const MANIFEST = '.preencode-manifest.json'
/** What Chromium 156 sends to 127.0.0.1 over plain HTTP. */
const CHROMIUM_ACCEPT_ENCODING = 'gzip, deflate, br, zstd'
const FIXTURE_MARKERS = ['chunk-a', 'chunk-b', 'main']

/** Accept-Encoding values of the negotiation table (`undefined` = no header). */
const ACCEPT_ENCODINGS: (string | undefined)[] = [
  undefined,
  CHROMIUM_ACCEPT_ENCODING,
  'gzip',
  ...ACCEPT_ENCODING_SPELLINGS,
]

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex')
const norm = (value: string | undefined): string | undefined => value?.toLowerCase().replace(/\s+/g, '')

/** The family of a server kind (`caddy-include` -> `caddy`): what the exceptions table names. */
const familyOf = (kind: ServerKind): string => kind.split('-')[0]!

/**
 * The coding a server is expected to pick: the serving specification's, bar the differences
 * the one table of named exceptions gives that server (SERVING_EXCEPTIONS in server-config).
 */
function expectedCoding(
  kind: ServerKind,
  site: Site,
  header: string | undefined,
  file: ManifestFile,
): Encoding | 'identity' {
  return specCoding(familyOf(kind), site.manifest, header, file)
}

/**
 * `wrangler dev` alone (not Miniflare's front line, not production): its dev proxy runs every
 * text/html response through HTMLRewriter for live reload, so a page goes out chunked (no
 * Content-Length), a gzip page is decoded and gzipped again by workerd, and a range of a gzip
 * page is dropped. The decoded page is the same; docs/deploy/cloudflare.md lists these cases, and
 * e2e/cloudflare/edge.spec.ts checks that they are exactly what wrangler dev does.
 */
function devProxyRewrites(kind: ServerKind, file: ManifestFile): boolean {
  return kind === 'cloudflare-dev' && file.contentType.startsWith('text/html')
}

/**
 * Whether something in front of the server encodes what it sent (Cloudflare's front line, the
 * `edgeEncodesOriginal` exception): then no Content-Length, and not the stored variant's bytes.
 */
function reEncoded(kind: ServerKind, site: Site, header: string | undefined, file: ManifestFile): boolean {
  const family = familyOf(kind)
  return specCoding(family, site.manifest, header, file) !== serverCoding(family, site.manifest, header, file)
}

function urlOf(file: ManifestFile): string {
  return `/${file.path.replace(/(^|\/)index\.html$/, '$1')}`
}

/** A file the tables below may request by its plain path: no odd characters, no dotfile. */
function plainPath(file: ManifestFile): boolean {
  return /^[A-Za-z0-9_/-][A-Za-z0-9_./-]*$/.test(file.path) && !file.path.includes('/.') && file.path !== BIG_ASSET
}

/** `/a/.b` with its dots percent-encoded (`/a/%2Eb`): servers decode before matching. */
function encodedDots(path: string): string {
  return `/${path.replace(/(^|\/)\./g, '$1%2E')}`
}

/** A few files with variants of each kind the issue names: HTML, JS, CSS, and a directory index. */
function samples(site: Site): ManifestFile[] {
  const withVariants = site.manifest.files.filter((f) => f.variants.length > 0 && plainPath(f))
  const pick = (re: RegExp): ManifestFile[] =>
    withVariants
      .filter((f) => re.test(f.path))
      .sort((a, b) => b.size - a.size)
      .slice(0, 2)
  return [...pick(/\.html$/), ...pick(/\.m?js$/), ...pick(/\.css$/), ...pick(/\.(json|svg|ttf|txt)$/)]
}

function acceptHeaders(value: string | undefined): Record<string, string> {
  return value === undefined ? {} : { 'accept-encoding': value }
}

function expectVaryOnce(res: RawResponse): void {
  const vary = res.headers.get('vary') ?? []
  expect(vary, 'exactly one Vary header').toHaveLength(1)
  const tokens = vary[0]!.split(',').map((t) => t.trim().toLowerCase())
  expect(
    tokens.filter((t) => t === 'accept-encoding'),
    `Vary: ${vary[0]}`,
  ).toHaveLength(1)
}

async function variantBytes(site: Site, file: ManifestFile, coding: Encoding): Promise<Buffer> {
  return readFile(join(site.root, file.variants.find((v) => v.encoding === coding)!.path))
}

function fileWithAll(site: Site, kind: ServerKind): ManifestFile {
  const file = samples(site).find(
    (f) => f.variants.length === 3 && new Set(f.variants.map((v) => v.size)).size === 3 && !devProxyRewrites(kind, f),
  )
  if (!file) throw new Error('the site has no file with three variants of different sizes')
  return file
}

test.describe('negotiation', () => {
  for (const header of ACCEPT_ENCODINGS) {
    test(`Accept-Encoding ${header === undefined ? '(none)' : JSON.stringify(header)}`, async ({
      server,
      site,
      serverKind,
      keepOriginals,
      tls,
    }) => {
      for (const file of samples(site)) {
        const res = await get(server.url + urlOf(file), acceptHeaders(header))
        const where = `${urlOf(file)} with ${JSON.stringify(header)}`
        expect(res.status, where).toBe(200)
        expect(res.httpVersion, `HTTP version of ${where}`).toBe(tls ? '2' : '1.1')
        const coding = expectedCoding(serverKind, site, header, file)
        const encoding = res.one('content-encoding')
        expect(encoding ?? 'identity', `Content-Encoding of ${where}`).toBe(coding)
        expect(norm(res.one('content-type')), `Content-Type of ${where}`).toBe(norm(file.contentType))
        expectVaryOnce(res)
        const decodedOnTheFly = !keepOriginals && coding === 'identity' && !file.originalOnDisk
        const edgeEncoded = reEncoded(serverKind, site, header, file)
        if (!decodedOnTheFly && !edgeEncoded && !devProxyRewrites(serverKind, file))
          expect(res.one('content-length'), `Content-Length of ${where}`).toBe(String(res.body.length))
        expect(sha256(decode(res.body, encoding)), `decoded body of ${where}`).toBe(file.sha256)
        // Bytes on the wire are the stored variant's: nothing compressed a second time.
        const stored = file.variants.find((v) => v.encoding === encoding)
        if (stored && !edgeEncoded && !devProxyRewrites(serverKind, file))
          expect(sha256(res.body), `bytes of ${where}: the stored ${stored.path}`).toBe(stored.sha256)
        expect(res.one('x-content-type-options')).toBe('nosniff')
        expect(res.one('cache-control'), `Cache-Control of ${where}`).toBe(file.cacheControl)
      }
    })
  }

  test('HEAD answers like GET, without a body', async ({ server, site, serverKind }) => {
    for (const file of samples(site).filter((f) => !devProxyRewrites(serverKind, f))) {
      for (const header of ['br', 'gzip', undefined]) {
        const [g, h] = [
          await get(server.url + urlOf(file), acceptHeaders(header)),
          await get(server.url + urlOf(file), acceptHeaders(header), 'HEAD'),
        ]
        expect(h.status).toBe(g.status)
        expect(h.body.length).toBe(0)
        for (const name of [
          'content-type',
          'content-encoding',
          'content-length',
          'etag',
          'vary',
          'cache-control',
          'last-modified',
        ]) {
          expect(h.one(name), `${name} of HEAD ${urlOf(file)} ${header}`).toBe(g.one(name))
        }
      }
    }
  })
})

test.describe('representations', () => {
  test('each representation has its own ETag', async ({ server, site, serverKind }) => {
    const file = fileWithAll(site, serverKind)
    const tags = new Map<string, string>()
    for (const header of ['identity', 'gzip', 'br', 'zstd']) {
      const res = await get(server.url + urlOf(file), { 'accept-encoding': header })
      expect(res.one('content-encoding') ?? 'identity').toBe(expectedCoding(serverKind, site, header, file))
      const etag = res.one('etag')
      expect(etag, `ETag for ${header}`).toBeTruthy()
      tags.set(header, etag!)
    }
    expect(new Set(tags.values()).size, JSON.stringify([...tags])).toBe(4)
  })

  test('If-None-Match and If-Modified-Since per representation', async ({ server, site, serverKind }) => {
    const file = fileWithAll(site, serverKind)
    const url = server.url + urlOf(file)
    const br = await get(url, { 'accept-encoding': 'br' })
    const etag = br.one('etag')!
    const notModified = await get(url, { 'accept-encoding': 'br', 'if-none-match': etag })
    expect(notModified.status).toBe(304)
    expect(notModified.one('etag')).toBe(etag)
    expectVaryOnce(notModified)
    // The brotli ETag must not validate the gzip representation.
    const gzip = await get(url, { 'accept-encoding': 'gzip', 'if-none-match': etag })
    expect(gzip.status).toBe(200)
    expect(gzip.one('content-encoding')).toBe('gzip')
    expect(sha256(gzip.body)).toBe(file.variants.find((v) => v.encoding === 'gzip')!.sha256)
    const lastModified = br.one('last-modified')
    expect(lastModified).toBeTruthy()
    const ims = await get(url, { 'accept-encoding': 'br', 'if-modified-since': lastModified! })
    expect(ims.status).toBe(304)
  })

  test('If-Modified-Since in the future is ignored (RFC 9110 §13.1.3), bar a named exception', async ({
    server,
    site,
    serverKind,
  }) => {
    const file = fileWithAll(site, serverKind)
    const future = new Date(Date.UTC(2999, 0, 1)).toUTCString()
    const res = await get(server.url + urlOf(file), { 'accept-encoding': 'br', 'if-modified-since': future })
    // Go's http.ServeContent, which Caddy's file_server uses, takes the future date as valid and
    // answers 304 (docs/servers/caddy.md): the exception holds exactly where it is named.
    if (hasServingException(familyOf(serverKind), 'futureIfModifiedSince304')) {
      expect(res.status).toBe(304)
      return
    }
    expect(res.status).toBe(200)
    expect(sha256(decode(res.body, res.one('content-encoding')))).toBe(file.sha256)
  })

  test('Range and If-Range per representation', async ({ server, site, serverKind }) => {
    const file = fileWithAll(site, serverKind)
    const url = server.url + urlOf(file)
    for (const coding of ['br', 'gzip', 'zstd'] as const) {
      const bytes = await variantBytes(site, file, coding)
      const res = await get(url, { 'accept-encoding': coding, range: 'bytes=0-99' })
      expect(res.status, `${coding} range on ${serverKind}`).toBe(206)
      expect(res.one('content-encoding')).toBe(coding)
      expect(res.one('content-range')).toBe(`bytes 0-99/${bytes.length}`)
      expect(res.body.equals(bytes.subarray(0, 100))).toBe(true)
    }
    const brTag = (await get(url, { 'accept-encoding': 'br' })).one('etag')!
    const gzipTag = (await get(url, { 'accept-encoding': 'gzip' })).one('etag')!
    const stale = await get(url, { 'accept-encoding': 'gzip', range: 'bytes=0-99', 'if-range': brTag })
    expect(stale.status, 'If-Range with the br ETag on a gzip request: the whole gzip body').toBe(200)
    expect(stale.body.equals(await variantBytes(site, file, 'gzip'))).toBe(true)
    const fresh = await get(url, { 'accept-encoding': 'gzip', range: 'bytes=0-99', 'if-range': gzipTag })
    expect(fresh.status).toBe(206)
  })
})

test.describe('site', () => {
  test('directory index and query strings get variants', async ({ server, site, serverKind }) => {
    const indexes = site.manifest.files.filter((f) => /(^|\/)index\.html$/.test(f.path) && f.variants.length > 0)
    expect(indexes.length).toBeGreaterThan(1)
    for (const file of indexes) {
      for (const suffix of ['', '?utm=1&x=%20y']) {
        const path = urlOf(file) + suffix
        const res = await get(server.url + path, { 'accept-encoding': 'gzip, deflate, br, zstd' })
        expect(res.status, path).toBe(200)
        expect(res.one('content-encoding'), path).toBe(
          expectedCoding(serverKind, site, 'gzip, deflate, br, zstd', file),
        )
        expect(norm(res.one('content-type'))).toBe(norm(file.contentType))
        expectVaryOnce(res)
        expect(res.one('cache-control')).toBe('no-cache')
        expect(sha256(decode(res.body, res.one('content-encoding')))).toBe(file.sha256)
      }
    }
  })

  test('a real .tar.gz stays application/gzip without Content-Encoding', async ({ server, site }) => {
    const file = site.manifest.files.find((f) => f.path.endsWith('.tar.gz'))!
    expect(file).toBeTruthy()
    const res = await get(`${server.url}/${file.path}`, { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(res.status).toBe(200)
    expect(res.one('content-type')).toBe('application/gzip')
    expect(res.one('content-encoding')).toBeUndefined()
    expect(sha256(res.body)).toBe(file.sha256)
  })

  test('a file name with a space, parentheses and non-ASCII letters', async ({ server, site, serverKind }) => {
    const file = site.manifest.files.find((f) => f.path === ODD_NAME)!
    expect(file.variants.length).toBe(3)
    const url = `${server.url}/${ODD_NAME.split('/').map(encodeURIComponent).join('/')}`
    for (const header of ['gzip, deflate, br, zstd', 'gzip', undefined]) {
      const res = await get(url, acceptHeaders(header))
      expect(res.status, String(header)).toBe(200)
      expect(res.one('content-encoding') ?? 'identity').toBe(expectedCoding(serverKind, site, header, file))
      expect(norm(res.one('content-type'))).toBe(norm(file.contentType))
      expectVaryOnce(res)
      expect(res.one('cache-control')).toBe(file.cacheControl)
      expect(sha256(decode(res.body, res.one('content-encoding')))).toBe(file.sha256)
    }
  })

  test('file names with ?, %, #, & and + (percent-encoded), with and without a coding', async ({
    server,
    site,
    serverKind,
  }) => {
    for (const name of [QUESTION_NAME, ...PERCENT_NAMES]) {
      const file = site.manifest.files.find((f) => f.path === name)!
      expect(file.variants.length).toBe(3)
      const url = `${server.url}/${name.split('/').map(encodeURIComponent).join('/')}`
      // Encoded on the wire (`%3F`, `%25`, `%23`, `%26`, `%2B`), raw on disk.
      expect(url.slice(server.url.length)).not.toMatch(/[?#&+]/)
      for (const header of ['gzip, deflate, br, zstd', 'gzip', 'zstd', undefined]) {
        const res = await get(url, acceptHeaders(header))
        expect(res.status, `${name} ${String(header)}`).toBe(200)
        expect(res.one('content-encoding') ?? 'identity', String(header)).toBe(
          expectedCoding(serverKind, site, header, file),
        )
        expect(norm(res.one('content-type'))).toBe(norm(file.contentType))
        expectVaryOnce(res)
        expect(sha256(decode(res.body, res.one('content-encoding')))).toBe(file.sha256)
      }
    }
  })

  test('dotfiles and dot-folders are not served (404), listed in the manifest or not; /.well-known/ is', async ({
    server,
    site,
  }) => {
    const listed = new Set(site.manifest.files.map((f) => f.path))
    for (const path of [...Object.keys(DOTFILES), MANIFEST]) {
      expect(listed.has(path) || path === MANIFEST, `${path} is in the manifest`).toBe(true)
      for (const url of [`/${path}`, encodedDots(path), `/${path}?x=1`, `/about/..${encodedDots(path)}`]) {
        for (const header of [undefined, 'gzip, deflate, br, zstd', 'identity']) {
          const res = await get(server.url + url, acceptHeaders(header))
          expect(res.status, `${url} with ${String(header)}`).toBe(404)
          expect(res.body.toString('latin1'), url).not.toContain('preencode-e2e-secret')
        }
      }
    }
    const secret = site.manifest.files.find((f) => f.path === 'docs/.secret.json')!
    // The compressible one has variants beside it (keep site): none of them is served either.
    for (const variant of secret.variants) expect((await get(`${server.url}/${variant.path}`)).status).toBe(404)
    const wellKnown = site.manifest.files.find((f) => f.path === WELL_KNOWN)!
    const res = await get(`${server.url}/${WELL_KNOWN}`, { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(res.status).toBe(200)
    expect(sha256(decode(res.body, res.one('content-encoding')))).toBe(wellKnown.sha256)
  })

  test('the manifest is not served', async ({ server }) => {
    for (const path of [`/${MANIFEST}`, `/${MANIFEST}?x=1`]) {
      const res = await get(server.url + path, { 'accept-encoding': 'gzip, br' })
      expect([403, 404], path).toContain(res.status)
    }
  })

  test('a directory asked for without its trailing slash is redirected to it, the query kept', async ({ server }) => {
    for (const [path, location] of [
      ['/about', '/about/'],
      ['/about?x=1', '/about/?x=1'],
    ] as const) {
      const res = await get(server.url + path, { 'accept-encoding': 'gzip, br' })
      expect([301, 308], path).toContain(res.status)
      expect(new URL(res.one('location') ?? '', server.url + path).href, path).toBe(server.url + location)
    }
  })

  test('Cache-Control by class and nosniff', async ({ server, site }) => {
    const immutable = site.manifest.files.find((f) => f.cacheClass === 'immutable' && f.variants.length > 0)!
    const res = await get(server.url + urlOf(immutable), { 'accept-encoding': 'br' })
    expect(res.one('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.one('x-content-type-options')).toBe('nosniff')
    const html = await get(`${server.url}/`, { 'accept-encoding': 'br' })
    expect(html.one('cache-control')).toBe('no-cache')
    expect(html.one('x-content-type-options')).toBe('nosniff')
    const other = site.manifest.files.find((f) => f.cacheClass === 'default' && plainPath(f))!
    const plain = await get(server.url + urlOf(other))
    expect(plain.one('cache-control')).toBe(other.cacheControl)
  })

  test('keepOriginals: false — a client without gzip gets the decoded bytes', { tag: ONLY.noOriginals }, async ({
    server,
    site,
  }) => {
    const missing = site.manifest.files.filter((f) => !f.originalOnDisk && plainPath(f))
    expect(missing.length).toBeGreaterThan(0)
    for (const file of missing) {
      for (const header of [undefined, 'identity', 'deflate']) {
        const res = await get(server.url + urlOf(file), acceptHeaders(header))
        expect(res.status, file.path).toBe(200)
        expect(res.one('content-encoding'), file.path).toBeUndefined()
        expect(sha256(res.body), file.path).toBe(file.sha256)
        expectVaryOnce(res)
      }
    }
  })
})

// The browser suite runs on the sites with originals.
test.describe('transport', { tag: ONLY.originals }, () => {
  test('the HTTP version of every response, and a secure context at the site origin', async ({
    page,
    server,
    tls,
    h3,
  }) => {
    const raw = await get(`${server.url}/`, { 'accept-encoding': 'br' })
    expect(raw.httpVersion).toBe(tls ? '2' : '1.1')
    const response = await page.goto(`${server.url}/`)
    const seen = await pageTransport(page)
    expect(seen.origin).toBe(server.url)
    // Over HTTPS at a name that is not localhost: the real secure-context path, not the exception.
    expect(seen.secure).toBe(true)
    const wanted = h3 ? 'h3' : tls ? 'h2' : 'http/1.1'
    expect(seen.protocols.length).toBeGreaterThan(1)
    for (const { type, path, protocol } of seen.protocols) expect(protocol, `${type} ${path}`).toBe(wanted)
    if (tls) {
      const details = await response!.securityDetails()
      expect(details?.subjectName).toBe('www.preencode.test')
      expect(details?.protocol).toMatch(/^(TLS 1\.3|QUIC)$/)
    }
    test.info().annotations.push({
      type: 'http version',
      description: `raw client ${raw.httpVersion}; Chromium: ${seen.protocols.map(({ type, path, protocol }) => `${type} ${path} ${protocol}`).join(', ')}`,
    })
  })
})

test.describe('Chromium', { tag: ONLY.originals }, () => {
  test('the site loads, every chunk runs, and JS, CSS and HTML arrive as br or zstd', async ({
    page,
    server,
    site,
    serverKind,
  }) => {
    const seen: { url: string; type: string; encoding: string | undefined }[] = []
    page.on('response', (response) => {
      const type = response.request().resourceType()
      if (response.url().startsWith(server.url) && ['document', 'script', 'stylesheet'].includes(type)) {
        seen.push({ url: response.url(), type, encoding: response.headers()['content-encoding'] })
      }
    })
    for (const [path, markers] of site.source === 'playground'
      ? ([
          ['/', EXPECTED.index],
          ['/about/', EXPECTED.about],
        ] as const)
      : ([['/', FIXTURE_MARKERS]] as const)) {
      await page.goto(server.url + path)
      if (site.source === 'playground') await expect(page.locator('#status')).toHaveAttribute('data-ready', 'true')
      else await expect(page.locator('#status')).toHaveText(/^ready:/)
      const ran = await page.evaluate(
        () => (window as unknown as { __preencodeMarkers?: string[] }).__preencodeMarkers ?? [],
      )
      for (const marker of markers) expect(ran, `marker ${marker} on ${path}`).toContain(marker)
    }
    const hasVariants = (url: string): boolean => {
      let path = new URL(url).pathname.slice(1)
      if (path === '' || path.endsWith('/')) path += 'index.html'
      return (site.manifest.files.find((f) => f.path === path)?.variants.length ?? 0) > 0
    }
    const fileOf = (url: string): ManifestFile => {
      let path = decodeURIComponent(new URL(url).pathname).slice(1)
      if (path === '' || path.endsWith('/')) path += 'index.html'
      return site.manifest.files.find((f) => f.path === path)!
    }
    for (const type of ['document', 'script', 'stylesheet']) {
      const ofType = seen.filter((r) => r.type === type && hasVariants(r.url))
      expect(ofType.length, `${type} responses with variants`).toBeGreaterThan(0)
      for (const r of ofType) {
        // Cloudflare's front line re-encodes br for Chromium's header (it ranks gzip first), so the
        // Worker sends zstd, or its stored gzip where that is smaller (edge.ts).
        if (hasServingException(familyOf(serverKind), 'edgeSafeCodings'))
          expect(r.encoding, r.url).toBe(expectedCoding(serverKind, site, CHROMIUM_ACCEPT_ENCODING, fileOf(r.url)))
        else expect(['br', 'zstd'], `${r.url}`).toContain(r.encoding)
      }
    }
    if (hasServingException(familyOf(serverKind), 'edgeSafeCodings'))
      expect(seen.filter((r) => r.type === 'script').map((r) => r.encoding)).toContain('zstd')
  })

  test('a zstd asset larger than 8 MiB decodes', async ({ page, server, site }) => {
    const file = site.manifest.files.find((f) => f.path === BIG_ASSET)!
    expect(file.size).toBeGreaterThan(8 * 1024 * 1024)
    await page.goto(`${server.url}/`)
    const response = page.waitForResponse((r) => r.url().endsWith(`/${BIG_ASSET}`))
    const result = await page.evaluate(async (path) => {
      const res = await fetch(path)
      const buffer = await res.arrayBuffer()
      const digest = await crypto.subtle.digest('SHA-256', buffer)
      return {
        status: res.status,
        length: buffer.byteLength,
        sha256: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join(''),
      }
    }, `/${BIG_ASSET}`)
    expect((await response).headers()['content-encoding']).toBe('zstd')
    expect(result).toEqual({ status: 200, length: file.size, sha256: file.sha256 })
  })
})
