// The generated CloudFront Function, evaluated in node:vm on many viewer requests.
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import type { Manifest, ManifestFile } from '@preencode/core'
import { cloudfrontFunction } from '@preencode/server-config'

interface CfRequest {
  uri: string
  headers: Record<string, { value: string; multiValue?: { value: string }[] }>
}

function file(path: string, encodings: Array<'br' | 'gzip' | 'zstd'>): ManifestFile {
  const ext = { br: '.br', gzip: '.gz', zstd: '.zst' } as const
  const format = { br: 'brotli', gzip: 'gzip', zstd: 'zstd' } as const
  return {
    path,
    size: 5000,
    sha256: '0'.repeat(64),
    mtimeMs: 0,
    contentType: 'text/plain',
    cacheClass: 'default',
    cacheControl: 'no-cache',
    originalOnDisk: true,
    variants: encodings.map((e) => ({ format: format[e], encoding: e, path: path + ext[e], size: 100, sha256: '1'.repeat(64) })),
  }
}

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

function load(code: string): (event: { request: CfRequest }) => CfRequest {
  const context: { handler?: (event: { request: CfRequest }) => CfRequest } = {}
  runInNewContext(code, context)
  return context.handler!
}

const handler = load(cloudfrontFunction(manifest))

function run(uri: string, acceptEncoding?: string | string[]): CfRequest {
  const headers: CfRequest['headers'] = {}
  if (typeof acceptEncoding === 'string') headers['accept-encoding'] = { value: acceptEncoding }
  if (Array.isArray(acceptEncoding)) headers['accept-encoding'] = { value: acceptEncoding[0]!, multiValue: acceptEncoding.map((value) => ({ value })) }
  return handler({ request: { uri, headers } })
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
  ])('%s with Accept-Encoding %j -> %s', (uri, ae, expected) => {
    expect(run(uri, ae).uri).toBe(expected)
  })

  it('reads multi-valued Accept-Encoding headers', () => {
    expect(run('/assets/style.css', ['gzip;q=0.5', 'zstd']).uri).toBe('/assets/style.css.zst')
  })

  it('normalizes Accept-Encoding to the chosen token for the cache key', () => {
    expect(run('/assets/style.css', 'gzip, deflate, br, zstd').headers['accept-encoding']!.value).toBe('br')
    expect(run('/assets/style.css', 'deflate').headers['accept-encoding']!.value).toBe('identity')
  })

  it('honours the encodings option and its preference order', () => {
    const gzipFirst = load(cloudfrontFunction(manifest, { encodings: ['gzip', 'br'] }))
    expect(gzipFirst({ request: { uri: '/index.html', headers: { 'accept-encoding': { value: 'br, gzip, zstd' } } } }).uri).toBe('/index.html.gz')
    expect(gzipFirst({ request: { uri: '/index.html', headers: { 'accept-encoding': { value: 'zstd' } } } }).uri).toBe('/index.html')
  })

  it('the data misses no file: a random manifest agrees with a direct lookup on every path', () => {
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
    const run2 = load(cloudfrontFunction(big))
    for (const f of files) {
      for (const ae of ['br', 'gzip', 'zstd']) {
        const has = f.variants.some((v) => v.encoding === ae)
        const suffix = { br: '.br', gzip: '.gz', zstd: '.zst' }[ae]
        expect(run2({ request: { uri: `/${f.path}`, headers: { 'accept-encoding': { value: ae } } } }).uri).toBe(has ? `/${f.path}${suffix}` : `/${f.path}`)
      }
    }
  })

  it('stays under 10 KB for a big site where files have their usual variants', () => {
    const files: ManifestFile[] = []
    for (let i = 0; i < 3000; i++) files.push(file(`assets/chunk-${i.toString(36)}-Ab${i}Cd.js`, ['br', 'gzip', 'zstd']))
    for (let i = 0; i < 150; i++) files.push(file(`assets/t${i}.js`, []))
    for (let i = 0; i < 500; i++) files.push(file(`img/p${i}.webp`, []))
    const code = cloudfrontFunction({ ...manifest, files })
    expect(Buffer.byteLength(code)).toBeLessThan(10_240)
    expect(code.startsWith('// generated by preencode')).toBe(true)
  })

  it('fails with a clear message when the function would exceed the limit', () => {
    const files: ManifestFile[] = []
    for (let i = 0; i < 3000; i++) files.push(file(`assets/chunk-${i}.js`, i % 2 ? ['br'] : ['gzip']))
    expect(() => cloudfrontFunction({ ...manifest, files })).toThrow(/above CloudFront's 10240-byte limit/)
  })

  it('refuses a site built without originals, which CloudFront could not serve to every client', () => {
    const files = [{ ...file('index.html', ['gzip']), originalOnDisk: false }]
    expect(() => cloudfrontFunction({ ...manifest, files })).toThrow(/built with keepOriginals: false/)
  })

  it('uses only ES5 syntax (no let/const/arrow functions/template literals)', () => {
    const code = cloudfrontFunction(manifest)
    expect(code).not.toMatch(/\b(let|const)\s|=>|`/)
  })
})
