/**
 * The serving specification: for a request's facts and what the site holds for the path, the
 * answer — status, headers, and which stored bytes (original, variant or delta) in which range.
 * Pure: no clock but the one passed, no I/O. The Node middleware, the Fetch handler and the
 * Cloudflare Worker only do I/O around it, `verify` takes its expected answers from it, and the
 * servers we only configure differ from it only where `exceptions.ts` names the difference.
 *
 * The rules, in the order they apply:
 * 1. `targetOf`: only GET and HEAD; the path is percent-decoded (a bad escape or a NUL is not a
 *    path of the site); a URL ending in `/` is its index file; a dotfile or a file in a
 *    dot-folder (the manifest, `.env`, `.git/`, temp files) is hidden: 404 when the site has it,
 *    the app's otherwise; `/.well-known/` is served (`dotfiles.ts`); a directory asked for
 *    without its trailing `/` is redirected to it (`directoryRedirect`); a path the site has no
 *    file for falls back to `<path>.html`, the SPA's `index.html`, then `404.html` with status 404
 *    (`conventions.ts`: the static-host conventions, answered by `answer(..., 404)`).
 * 2. `chooseRepresentation`: a delta the site lists for the request's valid
 *    `Available-Dictionary` and a coding named in Accept-Encoding (RFC 9842, `dictionary-delta.ts`),
 *    smallest first; else the smallest acceptable variant (RFC 9110 §12.5.3, `negotiate.ts`);
 *    else the original, even when the client refuses identity (§12.5.3 allows it); with no
 *    original stored, the gzip variant decoded (`keepOriginals: false`).
 * 3. `answer`: headers (`Vary: Accept-Encoding` when variants exist or may, plus
 *    `Available-Dictionary` for a delta; an ETag per representation), then the preconditions of
 *    RFC 9110 §13.2.2 (If-Match / If-Unmodified-Since -> 412, If-None-Match / If-Modified-Since ->
 *    304), then a single byte range (§14, If-Range) -> 206 or 416; a decoded body has no ranges.
 *    A 412 or 416 sends no representation: no Content-Encoding, `Content-Length: 0`.
 */

import { etagOf, match, noneMatch, notModifiedSince } from './conditional.js'
import { chooseDelta, type DeltaIndex, deltasByDictionary } from './dictionary-delta.js'
import { isDotPath } from './dotfiles.js'
import { type Encoding, negotiate } from './negotiate.js'
import { type ByteRange, parseRange } from './range.js'
import type { ServedFile } from './served-file.js'

/** The request headers (lower-case names) the answer depends on. */
export const REQUEST_FACT_HEADERS = [
  'accept-encoding',
  'available-dictionary',
  'range',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
  'if-range',
] as const

type RequestFactHeader = (typeof REQUEST_FACT_HEADERS)[number]

/** What the answer depends on: the method and those headers (absent: undefined). */
export interface RequestFacts {
  method: string
  headers: Partial<Record<RequestFactHeader, string>>
}

/** Where a request goes. */
export type Target =
  /** A file of the site, by its path relative to the root. */
  | {
      kind: 'file'
      path: string
      /** The path as asked, before a directory URL's index was appended (`blog/`), for the fallbacks. */
      asked: string
      /**
       * For a URL without a trailing `/`: the index file that makes it a directory. When the site
       * has no file at `path` but has this one, the answer is `directoryRedirect`.
       */
      directoryIndex?: string
    }
  /** A dotfile or something in a dot-folder: 404 when the site has it, else not the site's. */
  | { kind: 'hidden'; path: string }
  /** Not a request for a file (another method, a path that does not decode): the app's. */
  | { kind: 'pass'; status: 400 | 405 }

/** The representation chosen: which stored file is read, and what is sent of it. */
export interface Representation {
  /** The stored file read (relative to the root). */
  path: string
  /** Length of the representation sent; undefined when not known (a body decoded on the fly). */
  size: number | undefined
  etag: string
  /** Content-Encoding; undefined for the original (identity). */
  encoding: string | undefined
  delta: boolean
  /** The stored gzip variant is decoded for a client that takes no coding. */
  decode: boolean
}

/** What is sent of the stored bytes; undefined for HEAD and answers without a body. */
export interface AnswerBody {
  path: string
  decode: boolean
  range: ByteRange | undefined
}

export interface Answer {
  status: 200 | 206 | 301 | 304 | 404 | 412 | 416
  /** In the order sent. */
  headers: Record<string, string>
  body: AnswerBody | undefined
}

export interface ChooseOptions {
  /** Narrows the variants a server may send for this header (the Cloudflare edge, `exceptions.ts`). */
  codings?: (acceptEncoding: string | undefined, available: readonly Encoding[]) => readonly Encoding[]
}

/** Where a request for `pathname` (as on the wire, percent-encoded, no query) goes. */
export function targetOf(method: string, pathname: string, index: string): Target {
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'pass', status: 405 }
  let path = pathname
  // Without a `%` there is nothing to decode (the path as it is, and no work per request).
  if (pathname.includes('%'))
    try {
      path = decodeURIComponent(pathname)
    } catch {
      return { kind: 'pass', status: 400 }
    }
  if (path.includes('\0') || !path.startsWith('/')) return { kind: 'pass', status: 400 }
  const asked = path.slice(1)
  const directory = asked === '' || asked.endsWith('/')
  const relative = directory ? asked + index : asked
  if (isDotPath(path)) return { kind: 'hidden', path: relative }
  // `//host` or `/\host` in a Location would leave the site: no redirect for such a path.
  return directory || relative.startsWith('/') || relative.includes('\\')
    ? { kind: 'file', path: relative, asked }
    : { kind: 'file', path: relative, asked, directoryIndex: `${relative}/${index}` }
}

/** The answer for a dotfile the site has (`hidden`): 404, as from every generated config (a 403 would tell it exists). */
export function hiddenFile(): Answer {
  return { status: 404, headers: { 'Content-Length': '0', 'X-Content-Type-Options': 'nosniff' }, body: undefined }
}

/**
 * A directory asked for without its trailing slash (`/about` where `about/index.html` exists):
 * 301 to the URL with it, the query kept, as nginx, Apache and Caddy answer — relative URLs in
 * the page then resolve inside the directory. `pathname` and `search` as on the wire.
 */
export function directoryRedirect(pathname: string, search: string): Answer {
  const headers = { Location: `${pathname}/${search}`, 'Content-Length': '0', 'X-Content-Type-Options': 'nosniff' }
  return { status: 301, headers, body: undefined }
}

const DELTAS = new WeakMap<ServedFile, DeltaIndex>()

function deltasOf(file: ServedFile): DeltaIndex {
  let index = DELTAS.get(file)
  if (!index) DELTAS.set(file, (index = deltasByDictionary(file)))
  return index
}

/** The representation for this request, or undefined when none is stored (only the gzip of a lost original). */
export function chooseRepresentation(
  facts: RequestFacts,
  file: ServedFile,
  options: ChooseOptions = {},
): Representation | undefined {
  const acceptEncoding = facts.headers['accept-encoding']
  const delta = chooseDelta(deltasOf(file), facts.headers['available-dictionary'], acceptEncoding)
  if (delta) {
    const { path, size, encoding } = delta
    return { path, size, etag: etagOf(delta.sha256), encoding, delta: true, decode: false }
  }
  const all = file.variants.map((v) => v.encoding)
  const codings = options.codings ? options.codings(acceptEncoding, all) : all
  const chosen = negotiate(acceptEncoding, codings)
  const variant =
    chosen === null || chosen === 'identity' ? undefined : file.variants.find((v) => v.encoding === chosen)
  if (variant) return { ...variant, delta: false, decode: false }
  if (file.original) return { ...file.original, encoding: undefined, delta: false, decode: false }
  const gzip = file.variants.find((v) => v.encoding === 'gzip')
  return (
    gzip && {
      path: gzip.path,
      size: file.originalSize,
      etag: file.originalEtag,
      encoding: undefined,
      delta: false,
      decode: true,
    }
  )
}

/** The headers every answer for `file` in `representation` carries, before preconditions and ranges. */
function representationHeaders(file: ServedFile, chosen: Representation): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': file.contentType }
  if (chosen.delta) headers.Vary = 'Accept-Encoding, Available-Dictionary'
  else if (file.variants.length > 0 || file.varies === true) headers.Vary = 'Accept-Encoding'
  if (file.useAsDictionary !== undefined) headers['Use-As-Dictionary'] = file.useAsDictionary
  if (chosen.encoding) headers['Content-Encoding'] = chosen.encoding
  headers['Cache-Control'] = file.cacheControl
  headers['X-Content-Type-Options'] = 'nosniff'
  headers.ETag = chosen.etag
  headers['Last-Modified'] = file.lastModified
  if (!chosen.decode) headers['Accept-Ranges'] = 'bytes'
  return headers
}

/** RFC 9110 §13.2.2 steps 1-4: 412, 304, or undefined to go on. */
function precondition(facts: RequestFacts, file: ServedFile, etag: string, now: number): 304 | 412 | undefined {
  const h = facts.headers
  const modified = Date.parse(file.lastModified)
  if (h['if-match'] !== undefined) {
    if (!match(h['if-match'], etag)) return 412
  } else if (h['if-unmodified-since'] !== undefined) {
    const since = Date.parse(h['if-unmodified-since'])
    if (!Number.isNaN(since) && modified > since) return 412
  }
  if (h['if-none-match'] !== undefined) return noneMatch(h['if-none-match'], etag) ? 304 : undefined
  if (h['if-modified-since'] !== undefined && notModifiedSince(h['if-modified-since'], modified, now)) return 304
  return undefined
}

/** §14.2 with If-Range (§13.1.5): the range to send, 'unsatisfiable', or undefined for the whole. */
function rangeOf(
  facts: RequestFacts,
  file: ServedFile,
  chosen: Representation,
): ByteRange | 'unsatisfiable' | undefined {
  const header = facts.headers.range
  if (header === undefined || chosen.decode || chosen.size === undefined) return undefined
  const ifRange = facts.headers['if-range']
  const applies =
    ifRange === undefined || (ifRange.startsWith('"') ? ifRange === chosen.etag : ifRange === file.lastModified)
  return applies ? parseRange(header, chosen.size) : undefined
}

/**
 * The answer for `facts` when `chosen` of `file` is sent. A server that learns the stored
 * file's size, ETag or date only when it opens it passes what it found in `chosen` and `file`.
 * `status` 404: the site's 404 page (`conventions.ts`), negotiated like any page but sent whole,
 * with no preconditions or ranges (they are about the resource asked for, which does not exist).
 */
export function answer(
  facts: RequestFacts,
  file: ServedFile,
  chosen: Representation,
  now = Date.now(),
  status: 200 | 404 = 200,
): Answer {
  const headers = representationHeaders(file, chosen)
  if (status === 404) {
    delete headers['Accept-Ranges']
    if (chosen.size !== undefined) headers['Content-Length'] = String(chosen.size)
    const body = facts.method === 'HEAD' ? undefined : { path: chosen.path, decode: chosen.decode, range: undefined }
    return { status, headers, body }
  }
  const failed = precondition(facts, file, chosen.etag, now)
  if (failed === 304) {
    delete headers['Content-Type']
    delete headers['Accept-Ranges']
    return { status: failed, headers, body: undefined }
  }
  // 412 and 416 send no representation, so no coding (a client, or Cloudflare's front line,
  // would take the empty body for an encoded one) and an empty body.
  if (failed === 412) {
    delete headers['Content-Encoding']
    headers['Content-Length'] = '0'
    return { status: failed, headers, body: undefined }
  }
  const range = rangeOf(facts, file, chosen)
  if (range === 'unsatisfiable') {
    delete headers['Content-Encoding']
    headers['Content-Range'] = `bytes */${chosen.size ?? 0}`
    headers['Content-Length'] = '0'
    return { status: 416, headers, body: undefined }
  }
  if (range) {
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${chosen.size ?? 0}`
    headers['Content-Length'] = String(range.end - range.start + 1)
  } else if (chosen.size !== undefined) headers['Content-Length'] = String(chosen.size)
  const body = facts.method === 'HEAD' ? undefined : { path: chosen.path, decode: chosen.decode, range }
  return { status: range ? 206 : 200, headers, body }
}

/** Both steps, from what the site records: the answer a correct server gives (`verify`, tests). */
export function specify(facts: RequestFacts, file: ServedFile, options: ChooseOptions = {}): Answer | undefined {
  const chosen = chooseRepresentation(facts, file, options)
  return chosen && answer(facts, file, chosen)
}
