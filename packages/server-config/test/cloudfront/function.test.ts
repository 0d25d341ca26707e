// The generated CloudFront Function, evaluated in node:vm on many viewer requests
// (vm.ts: `cf.kvs().get` answered from the generated store data).

import type { Manifest, ManifestFile } from '@preencode/core'
import {
  CLOUDFRONT_FUNCTION_MAX_BYTES,
  cloudfrontFunction,
  cloudfrontKeyValueStore,
  SERVER_REGISTRY,
} from '@preencode/server-config'
import { describe, expect, it } from 'vitest'
import { type CfRequest, type Handler, loadCloudfrontFunction, manifestFile, viewerRequest } from './vm.js'

const file = manifestFile

const manifest: Manifest = {
  version: 1,
  generator: 'test',
  formats: ['gzip', 'brotli', 'zstd'],
  files: [
    file('index.html', ['br', 'gzip', 'zstd']),
    file('about/index.html', ['br', 'gzip', 'zstd']),
    file('assets/app-Ab1Cd34E.js', ['br', 'gzip', 'zstd']),
    file('assets/tiny.js', []),
    file('assets/gz-only.css', ['gzip']),
    file('assets/style.css', ['br', 'gzip', 'zstd']),
    file('img/logo.png', []),
    file('downloads/data.tar.gz', []),
    file('docs/a b.txt', ['br']),
  ],
}

function load(code: string, kvsJson: string): Handler {
  expect(code).toContain("import cf from 'cloudfront';")
  return loadCloudfrontFunction(code, kvsJson)
}

const handler = load(cloudfrontFunction(manifest), cloudfrontKeyValueStore(manifest))

function run(uri: string, acceptEncoding?: string | string[], h: Handler = handler): Promise<CfRequest> {
  return h(viewerRequest(uri, { 'accept-encoding': acceptEncoding }))
}

describe('cloudfrontFunction', () => {
  it.each([
    ['/assets/app-Ab1Cd34E.js', 'gzip, deflate, br, zstd', '/assets/app-Ab1Cd34E.js.br'],
    ['/assets/app-Ab1Cd34E.js', 'gzip', '/assets/app-Ab1Cd34E.js.gz'],
    ['/assets/app-Ab1Cd34E.js', 'zstd', '/assets/app-Ab1Cd34E.js.zst'],
    ['/assets/app-Ab1Cd34E.js', 'x-gzip', '/assets/app-Ab1Cd34E.js.gz'],
    ['/assets/app-Ab1Cd34E.js', 'GZIP, BR', '/assets/app-Ab1Cd34E.js.br'],
    ['/assets/app-Ab1Cd34E.js', 'br;q=0, gzip', '/assets/app-Ab1Cd34E.js.gz'],
    ['/assets/app-Ab1Cd34E.js', 'br;q=0.5, gzip;q=0.8', '/assets/app-Ab1Cd34E.js.gz'],
    ['/assets/app-Ab1Cd34E.js', 'br;q=0.8, gzip;q=0.8', '/assets/app-Ab1Cd34E.js.br'],
    ['/assets/app-Ab1Cd34E.js', 'br ; q=1.0', '/assets/app-Ab1Cd34E.js.br'],
    ['/assets/app-Ab1Cd34E.js', 'brotli', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', 'gzipx, xbr', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', 'identity', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', '', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', undefined, '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', 'gzip;q=0, br;q=0, zstd;q=0', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', '*', '/assets/app-Ab1Cd34E.js.br'],
    ['/assets/app-Ab1Cd34E.js', '*;q=0', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', 'gzip, *;q=0', '/assets/app-Ab1Cd34E.js.gz'],
    ['/assets/app-Ab1Cd34E.js', 'br;q=abc, gzip', '/assets/app-Ab1Cd34E.js.gz'],
    // A malformed weight (RFC 9110 qvalue) ignores its entry (issue 29): never read as 1.
    ['/assets/app-Ab1Cd34E.js', 'br;q=0x1', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', 'br;q=.5', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', 'br;q', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', 'br;q=1.0001', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', 'br;q=2', '/assets/app-Ab1Cd34E.js'],
    ['/assets/app-Ab1Cd34E.js', 'br;q=0x1, gzip', '/assets/app-Ab1Cd34E.js.gz'],
    ['/assets/app-Ab1Cd34E.js', 'br;q=.5, zstd;q=1.0001, gzip;q=0.5', '/assets/app-Ab1Cd34E.js.gz'],
    ['/assets/app-Ab1Cd34E.js', 'br ; q = 0.5', '/assets/app-Ab1Cd34E.js.br'],
    ['/assets/app-Ab1Cd34E.js', 'br ; q = 0', '/assets/app-Ab1Cd34E.js'],
    // A percent-encoded dot is the same object name for S3.
    ['/assets/app-Ab1Cd34E%2ejs', 'br', '/assets/app-Ab1Cd34E%2ejs.br'],
    ['/assets/gz-only.css', 'br, zstd', '/assets/gz-only.css'],
    ['/assets/gz-only.css', 'br, gzip', '/assets/gz-only.css.gz'],
    ['/assets/tiny.js', 'br, gzip', '/assets/tiny.js'],
    ['/img/logo.png', 'br, gzip', '/img/logo.png'],
    ['/downloads/data.tar.gz', 'br, gzip', '/downloads/data.tar.gz'],
    ['/', 'br', '/index.html.br'],
    ['/', undefined, '/index.html'],
    ['/about/', 'gzip', '/about/index.html.gz'],
    ['/about/', 'identity', '/about/index.html'],
    // A path the manifest does not know takes its extension's usual variants; the origin then
    // answers 404/403 exactly as it would for the original.
    ['/nowhere/', 'br', '/nowhere/index.html.br'],
    ['/docs/a%20b.txt', 'br', '/docs/a%20b.txt.br'],
    ['/docs/a%20b.txt', 'gzip', '/docs/a%20b.txt'],
  ])('%s with Accept-Encoding %j -> %s', async (uri, ae, expected) => {
    expect((await run(uri, ae)).uri).toBe(expected)
  })

  it.each([
    '/.env',
    '/%2eenv',
    '/.preencode-deploy-state.json',
    '/.preencode-tmp-0123456789ab',
    '/.git/config',
    '/docs/.secret.json',
    '/docs/%2Esecret.json',
    '/.well-known/.hidden',
  ])('refuses the dotfile %s with 404, whatever the client accepts (issue 19)', async (uri) => {
    for (const ae of ['gzip, deflate, br, zstd', undefined])
      expect(await run(uri, ae)).toEqual({ statusCode: 404, statusDescription: 'Not Found' })
  })

  it('serves /.well-known/ (RFC 8615)', async () => {
    expect((await run('/.well-known/security.txt', 'br')).uri).toBe('/.well-known/security.txt.br')
  })

  it('reads multi-valued Accept-Encoding headers', async () => {
    expect((await run('/assets/style.css', ['gzip;q=0.5', 'zstd'])).uri).toBe('/assets/style.css.zst')
  })

  it('normalizes Accept-Encoding to the chosen token for the cache key', async () => {
    expect((await run('/assets/style.css', 'gzip, deflate, br, zstd')).headers['accept-encoding']!.value).toBe('br')
    expect((await run('/assets/style.css', 'deflate')).headers['accept-encoding']!.value).toBe('identity')
  })

  it.each([
    '/img/logo.png',
    '/downloads/data.tar.gz',
    '/extensionless',
    '/assets/app-Ab1Cd34E%2ejs',
    '/assets/app-Ab1Cd34E.js',
    '/bad%escape.js',
    '/',
  ])('keeps no client spelling of Accept-Encoding in the cache key of %s (issue 30)', async (uri) => {
    const keys = new Set<string | undefined>()
    for (const ae of ['gzip, deflate, br, zstd', 'GZIP', 'x-gzip;q=0.9, foo', 'deflate', 'br;q=0x1', '', undefined]) {
      const request = await run(uri, ae)
      keys.add(request.headers['accept-encoding']?.value)
    }
    expect([...keys].every((key) => key === 'identity' || ['br', 'zstd', 'gzip'].includes(key!))).toBe(true)
  })

  it("viewer response: a delta is what S3 stored as one (dcb/dcz), never a user's own my.dict/ folder (issue 29)", async () => {
    const respond = async (uri: string, encoding: string | undefined) => {
      const headers: Record<string, { value: string }> = encoding ? { 'content-encoding': { value: encoding } } : {}
      const answer = await handler({
        context: { eventType: 'viewer-response' },
        request: { uri, headers: {} },
        response: { statusCode: 200, headers },
      })
      return answer.headers.vary?.value
    }
    const id = 'AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE='
    expect(await respond('/my.dict/page.html.br', 'br')).toBe('Accept-Encoding')
    expect(await respond('/my.dict/page.html', undefined)).toBe('Accept-Encoding')
    expect(await respond('/my.dict/app.js.gz', 'gzip')).toBe('Accept-Encoding')
    expect(await respond(`/my.dict/app.js.dict/${id}.js.dcb`, 'dcb')).toBe('Accept-Encoding, Available-Dictionary')
    expect(await respond(`/assets/app.js.dict/${id}.js.dcz`, 'dcz')).toBe('Accept-Encoding, Available-Dictionary')
  })

  it('honours the encodings option and its preference order', async () => {
    const gzipFirst = load(
      cloudfrontFunction(manifest, { encodings: ['gzip', 'br'] }),
      cloudfrontKeyValueStore(manifest, { encodings: ['gzip', 'br'] }),
    )
    expect((await run('/index.html', 'br, gzip, zstd', gzipFirst)).uri).toBe('/index.html.gz')
    expect((await run('/index.html', 'zstd', gzipFirst)).uri).toBe('/index.html')
  })

  it('tries the codings of a file smallest first when the store lists them (zstd smaller than br)', async () => {
    const inverted = file('data/rows.json', ['br', 'zstd', 'gzip'])
    inverted.variants.find((v) => v.encoding === 'zstd')!.size = 90
    const withInverted: Manifest = { ...manifest, files: [...manifest.files, inverted] }
    const kvs = cloudfrontKeyValueStore(withInverted)
    expect(JSON.parse(kvs).data).toContainEqual({ key: 'data/rows.json', value: 'zbg' })
    const h = load(cloudfrontFunction(withInverted), kvs)
    expect((await run('/data/rows.json', 'gzip, deflate, br, zstd', h)).uri).toBe('/data/rows.json.zst')
    expect((await run('/data/rows.json', 'gzip, deflate, br', h)).uri).toBe('/data/rows.json.br')
    expect((await run('/index.html', 'gzip, deflate, br, zstd', h)).uri).toBe('/index.html.br')
  })

  it('the store misses no file: a random manifest agrees with a direct lookup on every path', async () => {
    const encodings = ['br', 'gzip', 'zstd'] as const
    const files: ManifestFile[] = []
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let i = 0; i < 400; i++) {
      const ext = ['js', 'css', 'html', 'svg', 'png', 'json'][Math.floor(random() * 6)]!
      const dir = ['', 'assets/', 'assets/chunks/', 'blog/2026/', 'img/'][Math.floor(random() * 5)]!
      files.push(file(`${dir}f${i}.${ext}`, ext === 'png' ? [] : encodings.filter(() => random() > 0.2)))
    }
    const big: Manifest = { ...manifest, files }
    const run2 = load(cloudfrontFunction(big), cloudfrontKeyValueStore(big))
    for (const f of files) {
      for (const ae of ['br', 'gzip', 'zstd']) {
        const has = f.variants.some((v) => v.encoding === ae)
        const suffix = { br: '.br', gzip: '.gz', zstd: '.zst' }[ae]
        expect((await run(`/${f.path}`, ae, run2)).uri).toBe(has ? `/${f.path}${suffix}` : `/${f.path}`)
      }
    }
  })

  it('a 100,000-file site: the same function as a 9-file one, under 10 KB; the store within its 5 MB', () => {
    const files: ManifestFile[] = []
    for (let i = 0; i < 100_000; i++) {
      const small = i % 10 === 0
      files.push(
        file(
          `section-${i % 97}/page-${i.toString(36)}/${i % 3 ? 'index.html' : `chunk-${i}-Ab${i}Cd.js`}`,
          small ? [] : ['br', 'gzip', 'zstd'],
        ),
      )
    }
    const big: Manifest = { ...manifest, files }
    const code = cloudfrontFunction(big)
    expect(code).toBe(cloudfrontFunction(manifest))
    expect(Buffer.byteLength(code)).toBeLessThan(CLOUDFRONT_FUNCTION_MAX_BYTES)
    const store = JSON.parse(cloudfrontKeyValueStore(big)) as { data: unknown[] }
    expect(store.data).toHaveLength(10_000)
  })

  it("fails with a clear message when the KeyValueStore data would exceed CloudFront's 5 MB", () => {
    const files: ManifestFile[] = []
    for (let i = 0; i < 60_000; i++) files.push(file(`assets/${'deep/'.repeat(16)}chunk-${i}.js`, []))
    expect(() => cloudfrontKeyValueStore({ ...manifest, files })).toThrow(
      /KeyValueStore data is \d+ bytes, above CloudFront's 5242880/,
    )
    // Raising `threshold` would list more files (issue 30): the advice is to lower it.
    expect(() => cloudfrontKeyValueStore({ ...manifest, files })).toThrow(/Lower `threshold` and `minSaving`/)
    // A library names the build's options by their keys, never by a CLI flag.
    expect(() => cloudfrontKeyValueStore({ ...manifest, files })).not.toThrow(/--/)
  })

  it('names a bad option through the label the registry passes: its key from code, its flag from the CLI', () => {
    expect(() => cloudfrontFunction(manifest, { indexFile: 'a/b.html' })).toThrow(/`indexFile` is "a\/b\.html"/)
    expect(() => cloudfrontFunction(manifest, { encodings: ['deflate' as 'br'] })).toThrow(
      /`encodings` has "deflate", which is not one of br, zstd, gzip/,
    )
    const flag = (key: string) => (key === 'indexFile' ? '--index-file' : `\`${key}\``)
    expect(() => SERVER_REGISTRY.cloudfront.resolveOptions({ indexFile: '' }, flag)).toThrow(/--index-file is ""/)
  })

  it('refuses a site built without originals, which CloudFront could not serve to every client', () => {
    const files = [{ ...file('index.html', ['gzip']), originalOnDisk: false }]
    expect(() => cloudfrontFunction({ ...manifest, files })).toThrow(/built with keepOriginals: false/)
  })

  it('uses no let, const, arrow functions or template literals (plain cloudfront-js-2.0)', () => {
    const code = cloudfrontFunction(manifest)
    expect(code).not.toMatch(/\b(let|const)\s|=>|`/)
  })
})
