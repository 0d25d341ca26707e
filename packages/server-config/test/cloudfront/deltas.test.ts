// RFC 9842 deltas through the CloudFront Function (run in node:vm, vm.ts): a delta is
// chosen only when the KeyValueStore lists it for that file and dictionary, so the function never
// rewrites to an object deploy did not upload; anything else is answered as without deltas.

import type { Manifest, ManifestDelta, ManifestFile } from '@preencode/core'
import { deltaPath } from '@preencode/core/internal'
import {
  CLOUDFRONT_FUNCTION_MAX_BYTES,
  cloudfrontFunction,
  cloudfrontKeyValueStore,
  KEY_VALUE_STORE_MAX_VALUE_BYTES,
} from '@preencode/server-config'
import { describe, expect, it } from 'vitest'
import { type CfRequest, type Handler, loadCloudfrontFunction, manifestFile, viewerRequest } from './vm.js'

/** A base64 SHA-256 whose first characters are `lead` (padding is canonical: ends in `A=`). */
const id = (lead: string): string => `${`${lead}${'Q'.repeat(42)}`.slice(0, 42)}A=`

const OLD = id('old1')
const OLDER = id('older2')
/** Starts with `/` and holds `//` and `+`: becomes nested folders, collapsed, and %2B in the URI. */
const SLASHY = id('//a+b//c')
const PAGE = id('page')

function withDeltas(file: ManifestFile, deltas: Array<[string, 'dcb' | 'dcz', number]>): ManifestFile {
  return {
    ...file,
    deltas: deltas.map(
      ([dictionary, encoding, size]): ManifestDelta => ({
        encoding,
        dictionary,
        dictionaryPath: 'x',
        path: deltaPath(file.path, dictionary, encoding),
        size,
        sha256: '2'.repeat(64),
      }),
    ),
  }
}

const APP = 'assets/app-Ab1Cd34E.js'
const manifest: Manifest = {
  version: 1,
  generator: 'test',
  formats: ['gzip', 'brotli', 'zstd'],
  files: [
    withDeltas(manifestFile(APP, ['br', 'gzip', 'zstd']), [
      [OLD, 'dcb', 10],
      [OLD, 'dcz', 12],
      [OLDER, 'dcz', 20],
      [OLDER, 'dcb', 30],
      [SLASHY, 'dcb', 15],
    ]),
    withDeltas(manifestFile('about/index.html', ['br', 'gzip', 'zstd']), [[PAGE, 'dcz', 50]]),
    manifestFile('assets/vendor-9f8e7d6c.js', ['br', 'gzip', 'zstd']),
    manifestFile('assets/style-Xy98Zw7q.css', ['gzip']),
  ],
}

const kvs = cloudfrontKeyValueStore(manifest)
const handler: Handler = loadCloudfrontFunction(cloudfrontFunction(manifest), kvs)
const CHROME = 'gzip, deflate, br, zstd, dcb, dcz'

function request(uri: string, ae: string | undefined, ad?: string | string[]): Promise<CfRequest> {
  return handler(viewerRequest(uri, { 'accept-encoding': ae, 'available-dictionary': ad }))
}

/** Every object key the manifest says deploy uploads. */
const uploaded = new Set(
  manifest.files.flatMap((f) => [f.path, ...f.variants.map((v) => v.path), ...(f.deltas ?? []).map((d) => d.path)]),
)

describe('cloudfrontKeyValueStore with deltas', () => {
  it('lists each file with deltas: its codings, then per dictionary the delta codings, smallest first', () => {
    const data = (JSON.parse(kvs) as { data: { key: string; value: string }[] }).data
    expect(data).toContainEqual({ key: APP, value: `bzg|${OLD}bz|${SLASHY}b|${OLDER}zb` })
    expect(data).toContainEqual({ key: 'about/index.html', value: `bzg|${PAGE}z` })
    expect(data.map((e) => e.key)).not.toContain('assets/vendor-9f8e7d6c.js')
  })

  it(`fails naming the file when a value would exceed CloudFront's ${KEY_VALUE_STORE_MAX_VALUE_BYTES} bytes`, () => {
    const many = Array.from({ length: 23 }, (_, i) => [id(`v${i}x`), 'dcb', i + 1] as [string, 'dcb', number])
    const big: Manifest = { ...manifest, files: [withDeltas(manifestFile(APP, ['br']), many)] }
    expect(() => cloudfrontKeyValueStore(big)).toThrow(
      /assets\/app-Ab1Cd34E\.js: its CloudFront KeyValueStore value is 1059 bytes, above CloudFront's 1024: deltas against 23 previous versions\. Lower `deltas\.versions` so fewer dictionaries have deltas\.$/,
    )
    // 22 dictionaries (1013 bytes) fit.
    expect(() =>
      cloudfrontKeyValueStore({ ...big, files: [withDeltas(manifestFile(APP, ['br']), many.slice(1))] }),
    ).not.toThrow()
  })

  it('the function with delta support stays under 10 KB', () => {
    expect(Buffer.byteLength(cloudfrontFunction(manifest))).toBeLessThan(CLOUDFRONT_FUNCTION_MAX_BYTES)
  })
})

/** The URI of a delta object: its key, with `+` and `=` percent-encoded. */
const delta = (file: string, dictionary: string, encoding: 'dcb' | 'dcz'): string =>
  `/${deltaPath(file, dictionary, encoding)}`.replaceAll('+', '%2B').replaceAll('=', '%3D')

describe('cloudfrontFunction with deltas', () => {
  it.each([
    // The smallest accepted delta for that dictionary.
    [`/${APP}`, CHROME, `:${OLD}:`, delta(APP, OLD, 'dcb'), 'dcb'],
    [`/${APP}`, CHROME, `:${OLDER}:`, delta(APP, OLDER, 'dcz'), 'dcz'],
    [`/${APP}`, 'br, dcb', `:${OLDER}:`, delta(APP, OLDER, 'dcb'), 'dcb'],
    [`/${APP}`, 'br, dcz', `:${OLD}:`, delta(APP, OLD, 'dcz'), 'dcz'],
    [`/${APP}`, 'br, dcb;q=0, dcz', `:${OLD}:`, delta(APP, OLD, 'dcz'), 'dcz'],
    [`/${APP}`, 'br, DCB', `  :${OLD}:\t`, delta(APP, OLD, 'dcb'), 'dcb'],
    [`/${APP}`, CHROME, `:${SLASHY}:`, delta(APP, SLASHY, 'dcb'), 'dcb'],
    ['/about/', CHROME, `:${PAGE}:`, delta('about/index.html', PAGE, 'dcz'), 'dcz'],
    // No delta for that dictionary, coding not accepted, or only through `*`: brotli, as without deltas.
    [`/${APP}`, 'br, dcz', `:${SLASHY}:`, `/${APP}.br`, 'br'],
    [`/${APP}`, 'gzip, br, zstd', `:${OLD}:`, `/${APP}.br`, 'br'],
    [`/${APP}`, 'br, *', `:${OLD}:`, `/${APP}.br`, 'br'],
    [`/${APP}`, 'gzip, dcb', `:${id('unknown')}:`, `/${APP}.gz`, 'gzip'],
    ['/assets/vendor-9f8e7d6c.js', CHROME, `:${OLD}:`, '/assets/vendor-9f8e7d6c.js.br', 'br'],
    ['/assets/style-Xy98Zw7q.css', CHROME, `:${OLD}:`, '/assets/style-Xy98Zw7q.css.gz', 'gzip'],
    // Hostile or malformed Available-Dictionary values never reach a path.
    [`/${APP}`, CHROME, OLD, `/${APP}.br`, 'br'],
    [`/${APP}`, CHROME, `:${OLD}:, :${OLDER}:`, `/${APP}.br`, 'br'],
    [`/${APP}`, CHROME, `:${OLD}:;id=1`, `/${APP}.br`, 'br'],
    [`/${APP}`, CHROME, `:${OLD.slice(0, 40)}/../=:`, `/${APP}.br`, 'br'],
    [`/${APP}`, CHROME, `:${OLD.slice(0, 42)}%2f:`, `/${APP}.br`, 'br'],
    [`/${APP}`, CHROME, `:${OLD.replace('A=', 'B=')}:`, `/${APP}.br`, 'br'],
    [`/${APP}`, CHROME, `:${OLD.replaceAll('Q', '_')}:`, `/${APP}.br`, 'br'],
    [`/${APP}`, CHROME, `:${OLD}\u0000:`, `/${APP}.br`, 'br'],
    [`/${APP}`, CHROME, [`:${OLD}:`, `:${OLDER}:`], `/${APP}.br`, 'br'],
  ])('%s, Accept-Encoding %j, Available-Dictionary %j -> %s', async (uri, ae, ad, expected, coding) => {
    const out = await request(uri, ae, ad)
    expect(out.uri).toBe(expected)
    expect(out.headers['accept-encoding']!.value).toBe(coding)
    // The dictionary stays in the request (and the cache key) only when a delta answers.
    if (coding === 'dcb' || coding === 'dcz')
      expect(out.headers['available-dictionary']!.value).toBe(String(ad).replace(/^[ \t]+|[ \t]+$/g, ''))
    else expect(out.headers['available-dictionary']).toBeUndefined()
  })

  it('never rewrites to an object deploy did not upload: every file, dictionary and Accept-Encoding', async () => {
    const dictionaries = [OLD, OLDER, SLASHY, PAGE, id('none')]
    const encodings = ['dcb', 'dcz', 'dcb, dcz', 'br, dcb', 'gzip, dcz;q=0.5', '*', 'br']
    let deltas = 0
    for (const file of manifest.files) {
      for (const dictionary of dictionaries) {
        for (const ae of encodings) {
          const out = await request(`/${file.path}`, ae, `:${dictionary}:`)
          const key = decodeURIComponent(out.uri.slice(1))
          if (key !== file.path) expect(uploaded, `${file.path} ${dictionary} ${ae}`).toContain(key)
          if (key.includes('.dict/')) deltas++
        }
      }
    }
    // app: 5 + 5 (two dictionaries with dcb and dcz) + 3 (dcb only); the page: 3 (dcz only).
    expect(deltas).toBe(16)
  })
})

describe('cloudfrontFunction on the viewer response', () => {
  const respond = (uri: string, contentEncoding?: string, statusCode = 200) =>
    handler({
      context: { eventType: 'viewer-response' },
      request: { uri, headers: {} },
      response: { statusCode, headers: contentEncoding ? { 'content-encoding': { value: contentEncoding } } : {} },
    })

  it.each([
    [`/${APP}`, undefined, 'Accept-Encoding', 'match="app-*.js"'],
    [`/${APP}`, 'br', 'Accept-Encoding', 'match="app-*.js"'],
    [`/${APP}.br`, 'br', 'Accept-Encoding', 'match="app-*.js"'],
    [delta(APP, OLD, 'dcb'), 'dcb', 'Accept-Encoding, Available-Dictionary', 'match="app-*.js"'],
    ['/about/', 'dcz', 'Accept-Encoding, Available-Dictionary', undefined],
    ['/about/index.html.gz', 'gzip', 'Accept-Encoding', undefined],
    ['/preencode-dictionary-0123456789abcdef.txt', 'br', 'Accept-Encoding', 'match="*", match-dest=("document")'],
    // The page dictionary's name is content-hashed at the site root; nothing else is it.
    ['/preencode-dictionary.txt', 'br', 'Accept-Encoding', undefined],
    ['/docs/preencode-dictionary-0123456789abcdef.txt', 'br', 'Accept-Encoding', undefined],
    // The asset dictionary: every URL of the site, any destination (a chunk's own match is longer).
    ['/preencode-assets-0123456789abcdef.txt', 'br', 'Accept-Encoding', 'match="*"'],
    ['/assets/preencode-assets-0123456789abcdef.txt', 'br', 'Accept-Encoding', undefined],
    ['/img/logo.png', undefined, undefined, undefined],
    ['/downloads/data.tar.gz', undefined, undefined, undefined],
  ])('%s (Content-Encoding %s): Vary %j, Use-As-Dictionary %j', async (uri, ce, vary, uad) => {
    const out = await respond(uri, ce)
    expect(out.headers.vary?.value).toBe(vary)
    expect(out.headers['use-as-dictionary']?.value).toBe(uad)
  })

  it('announces no dictionary on an error response', async () => {
    expect((await respond(`/${APP}`, undefined, 404)).headers['use-as-dictionary']).toBeUndefined()
  })
})
