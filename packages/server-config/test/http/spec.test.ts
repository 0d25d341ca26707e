// The serving specification as a table: request facts and a file's entry -> the answer (status,
// headers, which stored bytes, which range). Every JavaScript server answers by it (middleware,
// Fetch handler, Worker); their own suites check the I/O around it.
import { describe, expect, it } from 'vitest'
import type { ServedFile } from '../../src/http/served-file.js'
import {
  answer,
  chooseRepresentation,
  directoryRedirect,
  type RequestFacts,
  specify,
  targetOf,
} from '../../src/http/spec.js'

const DICTIONARY = `${'A'.repeat(43)}=`
const LAST_MODIFIED = 'Tue, 01 Sep 2026 10:00:00 GMT'
const FILE: ServedFile = {
  contentType: 'text/javascript; charset=utf-8',
  cacheControl: 'public, max-age=31536000, immutable',
  lastModified: LAST_MODIFIED,
  original: { path: 'app.js', size: 1000, etag: '"orig"' },
  originalEtag: '"orig"',
  originalSize: 1000,
  variants: [
    { encoding: 'br', path: 'app.js.br', size: 200, etag: '"br"' },
    { encoding: 'zstd', path: 'app.js.zst', size: 220, etag: '"zstd"' },
    { encoding: 'gzip', path: 'app.js.gz', size: 300, etag: '"gzip"' },
  ],
  deltas: [
    {
      encoding: 'dcz',
      dictionary: DICTIONARY,
      path: `app.js.dict/${DICTIONARY}.js.dcz`,
      size: 40,
      sha256: 'd'.repeat(64),
    },
    {
      encoding: 'dcb',
      dictionary: DICTIONARY,
      path: `app.js.dict/${DICTIONARY}.js.dcb`,
      size: 30,
      sha256: 'b'.repeat(64),
    },
  ],
  useAsDictionary: 'match="/app-*.js"',
}
const NO_ORIGINAL: ServedFile = { ...FILE, original: undefined, deltas: undefined }
const PLAIN: ServedFile = { ...FILE, variants: [], deltas: undefined, useAsDictionary: undefined }

const facts = (headers: RequestFacts['headers'] = {}, method = 'GET'): RequestFacts => ({ method, headers })
const AVAILABLE = `:${DICTIONARY}:`

interface Row {
  name: string
  file?: ServedFile
  request: RequestFacts
  status: number
  /** Stored file read and range; undefined: no body. */
  body?: { path: string; decode?: boolean; range?: [number, number] }
  headers?: Record<string, string | undefined>
}

const TABLE: Row[] = [
  {
    name: 'no Accept-Encoding: the original',
    request: facts(),
    status: 200,
    body: { path: 'app.js' },
    headers: { 'Content-Encoding': undefined, 'Content-Length': '1000', Vary: 'Accept-Encoding', ETag: '"orig"' },
  },
  {
    name: 'the smallest accepted variant',
    request: facts({ 'accept-encoding': 'gzip, deflate, br, zstd' }),
    status: 200,
    body: { path: 'app.js.br' },
    headers: { 'Content-Encoding': 'br', 'Content-Length': '200', ETag: '"br"' },
  },
  {
    name: 'q=0 refuses',
    request: facts({ 'accept-encoding': 'br;q=0, zstd' }),
    status: 200,
    body: { path: 'app.js.zst' },
  },
  { name: 'x-gzip is gzip', request: facts({ 'accept-encoding': 'x-gzip' }), status: 200, body: { path: 'app.js.gz' } },
  {
    name: 'identity;q=0 with nothing else: the original anyway',
    request: facts({ 'accept-encoding': 'identity;q=0' }),
    status: 200,
    body: { path: 'app.js' },
  },
  {
    name: 'the smallest delta for a valid Available-Dictionary',
    request: facts({ 'accept-encoding': 'gzip, br, zstd, dcb, dcz', 'available-dictionary': AVAILABLE }),
    status: 200,
    body: { path: `app.js.dict/${DICTIONARY}.js.dcb` },
    headers: { 'Content-Encoding': 'dcb', Vary: 'Accept-Encoding, Available-Dictionary', 'Content-Length': '30' },
  },
  {
    name: 'a delta only for a coding named',
    request: facts({ 'accept-encoding': 'br, dcz', 'available-dictionary': AVAILABLE }),
    status: 200,
    body: { path: `app.js.dict/${DICTIONARY}.js.dcz` },
  },
  {
    name: 'no delta for `*`',
    request: facts({ 'accept-encoding': '*', 'available-dictionary': AVAILABLE }),
    status: 200,
    body: { path: 'app.js.br' },
    headers: { Vary: 'Accept-Encoding' },
  },
  {
    name: 'no delta for an invalid Available-Dictionary',
    request: facts({ 'accept-encoding': 'br, dcb', 'available-dictionary': DICTIONARY }),
    status: 200,
    body: { path: 'app.js.br' },
  },
  {
    name: 'HEAD: the headers of GET, no body',
    request: facts({ 'accept-encoding': 'zstd' }, 'HEAD'),
    status: 200,
    headers: { 'Content-Encoding': 'zstd', 'Content-Length': '220' },
  },
  {
    name: 'If-None-Match of this representation: 304 without type',
    request: facts({ 'accept-encoding': 'br', 'if-none-match': 'W/"br"' }),
    status: 304,
    headers: { 'Content-Type': undefined, 'Accept-Ranges': undefined, ETag: '"br"', Vary: 'Accept-Encoding' },
  },
  {
    name: "another representation's tag: 200",
    request: facts({ 'accept-encoding': 'gzip', 'if-none-match': '"br"' }),
    status: 200,
    body: { path: 'app.js.gz' },
  },
  {
    name: 'If-Modified-Since at Last-Modified: 304',
    request: facts({ 'if-modified-since': LAST_MODIFIED }),
    status: 304,
  },
  {
    name: 'If-None-Match wins over If-Modified-Since',
    request: facts({ 'if-none-match': '"x"', 'if-modified-since': LAST_MODIFIED }),
    status: 200,
    body: { path: 'app.js' },
  },
  {
    name: 'If-Match of another representation: 412, without a coding',
    request: facts({ 'accept-encoding': 'gzip', 'if-match': '"br"' }),
    status: 412,
    headers: { 'Content-Encoding': undefined, 'Content-Length': '0', ETag: '"gzip"' },
  },
  {
    name: 'If-Match weak never matches (strong comparison)',
    request: facts({ 'accept-encoding': 'br', 'if-match': 'W/"br"' }),
    status: 412,
  },
  {
    name: 'If-Unmodified-Since before Last-Modified: 412',
    request: facts({ 'if-unmodified-since': 'Mon, 31 Aug 2026 10:00:00 GMT' }),
    status: 412,
  },
  {
    name: 'If-Unmodified-Since ignored when If-Match is given',
    request: facts({ 'if-match': '*', 'if-unmodified-since': 'Mon, 31 Aug 2026 10:00:00 GMT' }),
    status: 200,
    body: { path: 'app.js' },
  },
  {
    name: 'a range of the variant',
    request: facts({ 'accept-encoding': 'br', range: 'bytes=10-19' }),
    status: 206,
    body: { path: 'app.js.br', range: [10, 19] },
    headers: { 'Content-Range': 'bytes 10-19/200', 'Content-Length': '10' },
  },
  {
    name: 'a suffix range',
    request: facts({ range: 'bytes=-100' }),
    status: 206,
    body: { path: 'app.js', range: [900, 999] },
  },
  {
    name: 'a range beyond the end: 416',
    request: facts({ 'accept-encoding': 'br', range: 'bytes=200-' }),
    status: 416,
    headers: { 'Content-Range': 'bytes */200', 'Content-Length': '0', 'Content-Encoding': undefined },
  },
  {
    name: 'If-Range of another representation: the whole',
    request: facts({ 'accept-encoding': 'br', range: 'bytes=0-9', 'if-range': '"gzip"' }),
    status: 200,
    body: { path: 'app.js.br' },
  },
  {
    name: 'If-Range at Last-Modified: the range',
    request: facts({ range: 'bytes=0-9', 'if-range': LAST_MODIFIED }),
    status: 206,
    body: { path: 'app.js', range: [0, 9] },
  },
  {
    name: 'several ranges: the whole (RFC 9110 §14.2 allows)',
    request: facts({ range: 'bytes=0-1,5-6' }),
    status: 200,
    body: { path: 'app.js' },
  },
  {
    name: 'no original: the gzip decoded, no ranges',
    file: NO_ORIGINAL,
    request: facts({ range: 'bytes=0-9' }),
    status: 200,
    body: { path: 'app.js.gz', decode: true },
    headers: { 'Accept-Ranges': undefined, 'Content-Length': '1000', ETag: '"orig"' },
  },
  {
    name: 'no variants: no Vary',
    file: PLAIN,
    request: facts({ 'accept-encoding': 'br' }),
    status: 200,
    body: { path: 'app.js' },
    headers: { Vary: undefined, 'Use-As-Dictionary': undefined },
  },
  {
    name: 'no variants yet but compressible: Vary',
    file: { ...PLAIN, varies: true },
    request: facts(),
    status: 200,
    body: { path: 'app.js' },
    headers: { Vary: 'Accept-Encoding' },
  },
]

describe('specify', () => {
  for (const row of TABLE) {
    it(row.name, () => {
      const got = specify(row.request, row.file ?? FILE, {})!
      expect(got.status).toBe(row.status)
      const body = row.body && {
        path: row.body.path,
        decode: row.body.decode ?? false,
        range: row.body.range && { start: row.body.range[0], end: row.body.range[1] },
      }
      expect(got.body).toEqual(body)
      for (const [name, value] of Object.entries(row.headers ?? {})) expect(got.headers[name], name).toBe(value)
      if (got.status !== 304) expect(got.headers['Content-Type']).toBe(FILE.contentType)
      expect(got.headers['X-Content-Type-Options']).toBe('nosniff')
      expect(got.headers['Cache-Control']).toBe(FILE.cacheControl)
    })
  }

  it('announces Use-As-Dictionary on every answer of a dictionary', () => {
    expect(specify(facts({ 'accept-encoding': 'br' }), FILE)!.headers['Use-As-Dictionary']).toBe('match="/app-*.js"')
  })

  it('a future If-Modified-Since is ignored (RFC 9110 §13.1.3)', () => {
    const chosen = chooseRepresentation(facts(), FILE)!
    const now = Date.parse('Wed, 02 Sep 2026 10:00:00 GMT')
    expect(answer(facts({ 'if-modified-since': 'Thu, 03 Sep 2026 10:00:00 GMT' }), FILE, chosen, now).status).toBe(200)
    expect(answer(facts({ 'if-modified-since': 'Tue, 01 Sep 2026 12:00:00 GMT' }), FILE, chosen, now).status).toBe(304)
  })

  it('lets a server narrow the codings (the Cloudflare edge)', () => {
    const chosen = chooseRepresentation(facts({ 'accept-encoding': 'gzip, br' }), FILE, {
      codings: (_, all) => all.filter((c) => c !== 'br'),
    })
    expect(chosen?.path).toBe('app.js.gz')
  })
})

describe('targetOf', () => {
  const cases: [string, string, ReturnType<typeof targetOf>][] = [
    ['GET', '/', { kind: 'file', path: 'index.html', asked: '' }],
    ['HEAD', '/about/', { kind: 'file', path: 'about/index.html', asked: 'about/' }],
    [
      'GET',
      '/a%20b%28c%29.js',
      { kind: 'file', path: 'a b(c).js', asked: 'a b(c).js', directoryIndex: 'a b(c).js/index.html' },
    ],
    ['GET', '/about', { kind: 'file', path: 'about', asked: 'about', directoryIndex: 'about/index.html' }],
    ['GET', '//evil.test', { kind: 'file', path: '/evil.test', asked: '/evil.test' }],
    ['GET', '/%5Cevil.test', { kind: 'file', path: '\\evil.test', asked: '\\evil.test' }],
    ['GET', '/.env', { kind: 'hidden', path: '.env' }],
    ['GET', '/%2Egit/config', { kind: 'hidden', path: '.git/config' }],
    ['GET', '/.preencode-manifest.json', { kind: 'hidden', path: '.preencode-manifest.json' }],
    [
      'GET',
      '/.well-known/security.txt',
      {
        kind: 'file',
        path: '.well-known/security.txt',
        asked: '.well-known/security.txt',
        directoryIndex: '.well-known/security.txt/index.html',
      },
    ],
    ['GET', '/.well-known/.x', { kind: 'hidden', path: '.well-known/.x' }],
    [
      'GET',
      '/my.dict/x.js',
      { kind: 'file', path: 'my.dict/x.js', asked: 'my.dict/x.js', directoryIndex: 'my.dict/x.js/index.html' },
    ],
    ['POST', '/', { kind: 'pass', status: 405 }],
    ['GET', '/%E0%A4%A', { kind: 'pass', status: 400 }],
    ['GET', '/a%00b', { kind: 'pass', status: 400 }],
  ]
  for (const [method, path, expected] of cases)
    it(`${method} ${path}`, () => expect(targetOf(method, path, 'index.html')).toEqual(expected))

  it('a directory without its slash: 301 to it, the query kept', () => {
    expect(directoryRedirect('/about', '?x=1')).toEqual({
      status: 301,
      headers: { Location: '/about/?x=1', 'Content-Length': '0', 'X-Content-Type-Options': 'nosniff' },
      body: undefined,
    })
  })
})
