/**
 * A connect/express-compatible middleware (`(req, res, next)`, Node's http only) that serves a
 * preencode output directory by the same rules as the generated server configs: RFC 9110
 * negotiation (`negotiate.ts`), one `Vary: Accept-Encoding`, the original's Content-Type,
 * Content-Length, an ETag per representation (from the manifest's sha256 of those bytes),
 * read from the file actually opened (see `serve`), and the manifest re-read when it changes,
 * so a rebuild or redeploy in place is followed without a restart;
 * HEAD, single byte ranges, If-None-Match / If-Modified-Since / If-Range / If-Match,
 * Cache-Control from the manifest, nosniff, directory index, the manifest never served.
 * With `keepOriginals: false` the gzip variant is decoded on the fly for clients that take no
 * coding (no Range then: the decoded bytes are streamed).
 *
 * RFC 9842: a file the manifest announces gets `Use-As-Dictionary`; a request with a valid
 * `Available-Dictionary` (`dictionary-delta.ts`) for which a delta exists, and `dcb`/`dcz`
 * named in Accept-Encoding, gets the smallest such delta with `Vary: Accept-Encoding,
 * Available-Dictionary`. Every other request is answered exactly as without deltas.
 *
 * A file the manifest does not list, or a folder without a manifest (what `deploy` writes), is
 * served from the disk as sirv would serve it (`disk.ts`). Paths with no file go to
 * `next()`, so the middleware can sit in front of any other handler; so do dotfiles and
 * dot-folders (`dotfiles.ts`), as sirv and express.static ignore them, except `/.well-known/`.
 */
import { open, type FileHandle } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { MANIFEST_FILENAME, useAsDictionaryHeader, type Manifest, type ManifestVariant } from '@preencode/core'
import { chooseDelta } from '../http/dictionary-delta.js'
import { negotiate } from '../http/negotiate.js'
import { parseRange, type ByteRange } from '../http/range.js'
import { etagOf, match, noneMatch, notModifiedSince } from '../http/conditional.js'
import { isDotPath } from '../shared/dotfiles.js'
import { diskEntry } from './disk.js'
import { type Entry, indexSite, manifestOnDisk } from './manifest.js'

export interface PreencodeMiddlewareOptions {
  /**
   * The manifest to serve by. When not given, `<root>/.preencode-manifest.json` is read on the
   * first request and read again whenever it changes on disk (a rebuild or a redeploy in place).
   */
  manifest?: Manifest
  /**
   * File served for a URL ending in `/`.
   * @default 'index.html'
   */
  index?: string
}

export type NextFunction = (error?: unknown) => void
export type PreencodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void

/** Creates the middleware for a preencode output directory. */
export function createPreencodeMiddleware(root: string, options: PreencodeMiddlewareOptions = {}): PreencodeMiddleware {
  const index = options.index ?? 'index.html'
  const given = options.manifest ? indexSite(options.manifest) : undefined
  const load = given ? async () => given : manifestOnDisk(root)

  return (req, res, next) => {
    const pass = (error?: unknown): void => {
      if (res.headersSent) res.destroy(error instanceof Error ? error : undefined)
      else if (next) next(error)
      else if (error) {
        res.statusCode = 500
        res.end()
      } else {
        res.statusCode = 404
        res.end()
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return pass()
    let path: string
    try {
      // origin-form (`/a/b?q`) as is — `//a/b` is a path, not a host; absolute-form via URL.
      const target = req.url ?? '/'
      path = decodeURIComponent(target.startsWith('/') ? target.replace(/[?#].*$/s, '') : new URL(target).pathname)
    } catch {
      return pass()
    }
    if (path.includes('\0')) return pass()
    let relative = path.slice(1)
    if (relative === '' || relative.endsWith('/')) relative += index
    if (relative === MANIFEST_FILENAME || relative.endsWith(`/${MANIFEST_FILENAME}`)) {
      res.statusCode = 404
      res.setHeader('X-Content-Type-Options', 'nosniff')
      res.end()
      return
    }
    // Dotfiles and dot-folders (`.env`, `.git/`, temp files, the deploy state), as sirv and
    // express.static ignore them: passed on, even when the manifest lists them.
    if (isDotPath(path)) return pass()
    const attempt = async (reload: boolean, identity: boolean): Promise<boolean | 'missing'> => {
      const site = await load(reload)
      // Not in the manifest (or no manifest): the file on disk, as sirv would serve it.
      const entry = site.entries?.get(relative) ?? (await diskEntry(root, relative, req, site.disk))
      return entry ? serve(root, entry, req, res, identity) : false
    }
    // A file the manifest names is gone: a rebuild removed it after the manifest was read. Read
    // the manifest again and retry; a variant removed before the new manifest is written (a
    // rebuild removes stale sidecars first) leaves the original, which is always right.
    attempt(false, false)
      .then((served) => (served === 'missing' ? attempt(!given, false) : served))
      .then((served) => (served === 'missing' ? attempt(false, true) : served))
      .then((served) => {
        if (served !== true) pass()
      })
      .catch(pass)
  }
}

/** The representation to send: which file, with which coding, and what the manifest says of it. */
interface Choice {
  variant: (Pick<ManifestVariant, 'path' | 'size' | 'sha256'> & { encoding: string }) | undefined
  /** A dictionary-compressed delta (RFC 9842): it varies on Available-Dictionary too. */
  delta: boolean
  /** Decode the gzip variant (`keepOriginals: false`, client takes no coding). */
  decode: boolean
  source: string
  /** Size the manifest records for `source`, and the sha256 of the representation sent (the ETag uses it only if the file opened still matches). */
  recorded: { size: number; sha256: string }
}

function choose(entry: Entry, req: IncomingMessage, identity: boolean): Choice | undefined {
  const { file, codings } = entry
  const header = req.headers['accept-encoding']
  const acceptEncoding = Array.isArray(header) ? header.join(',') : header
  const delta = identity ? undefined : chooseDelta(entry.deltas, req.headers['available-dictionary'], acceptEncoding)
  if (delta) return { variant: delta, delta: true, decode: false, source: delta.path, recorded: delta }
  const chosen = identity ? 'identity' : negotiate(acceptEncoding, codings)
  // Nothing acceptable: send the original anyway, as RFC 9110 §12.5.3 allows (like the servers).
  const variant =
    chosen === null || chosen === 'identity' ? undefined : file.variants.find((v) => v.encoding === chosen)
  if (variant) return { variant, delta: false, decode: false, source: variant.path, recorded: variant }
  if (file.originalOnDisk) return { variant: undefined, delta: false, decode: false, source: file.path, recorded: file }
  const gzip = file.variants.find((v) => v.encoding === 'gzip')
  // The .gz on disk is what is opened; the representation sent is the original's.
  return (
    gzip && {
      variant: undefined,
      delta: false,
      decode: true,
      source: gzip.path,
      recorded: { size: gzip.size, sha256: file.sha256 },
    }
  )
}

/**
 * Serves one file. Everything about the bytes — Content-Length, Range, ETag, Last-Modified and
 * the body — comes from the one file handle opened here, never from the manifest, so a rebuild
 * that replaces the file (atomically, by rename) mid-request cannot cut or mix a body: the
 * handle keeps the file it opened. Resolves `'missing'` when the file is gone; `identity`
 * sends the original whatever the client accepts.
 */
async function serve(
  root: string,
  entry: Entry,
  req: IncomingMessage,
  res: ServerResponse,
  identity: boolean,
): Promise<boolean | 'missing'> {
  const { file, codings } = entry
  const choice = choose(entry, req, identity)
  if (!choice) return false
  const { variant, decode } = choice
  let handle: FileHandle
  try {
    handle = await open(join(root, choice.source), 'r')
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : false
  }
  let streaming = false
  try {
    const info = await handle.stat()
    if (!info.isFile()) return false
    // The file opened is the one the manifest describes when size and mtime agree (variants
    // carry their original's mtime); otherwise a rebuild replaced it since: derive the ETag
    // from what was opened, so a cache never pairs a tag with other bytes.
    // Within a millisecond: tools that copy times (and Node's Date) round sub-millisecond parts.
    const asRecorded = !entry.onDisk && info.size === choice.recorded.size && Math.abs(info.mtimeMs - file.mtimeMs) <= 1
    const etag = asRecorded
      ? etagOf(choice.recorded.sha256)
      : `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}-${variant?.encoding ?? 'identity'}"`
    const size = info.size
    const lastModified = new Date(Math.floor(info.mtimeMs / 1000) * 1000).toUTCString()

    res.setHeader('Content-Type', file.contentType)
    if (choice.delta) res.setHeader('Vary', 'Accept-Encoding, Available-Dictionary')
    else if (codings.length > 0 || entry.varies) res.setHeader('Vary', 'Accept-Encoding')
    if (file.useAsDictionary !== undefined)
      res.setHeader(
        'Use-As-Dictionary',
        useAsDictionaryHeader(file.useAsDictionary, file.matchDest ? { matchDest: file.matchDest } : {}),
      )
    if (variant) res.setHeader('Content-Encoding', variant.encoding)
    res.setHeader('Cache-Control', file.cacheControl)
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('ETag', etag)
    res.setHeader('Last-Modified', lastModified)
    if (!decode) res.setHeader('Accept-Ranges', 'bytes')

    const ifMatch = req.headers['if-match']
    if (ifMatch !== undefined && !match(ifMatch, etag)) return finish(res, 412)
    const ifNoneMatch = req.headers['if-none-match']
    if (ifNoneMatch !== undefined) {
      if (noneMatch(ifNoneMatch, etag)) return finish(res, 304)
    } else if (
      req.headers['if-modified-since'] !== undefined &&
      notModifiedSince(req.headers['if-modified-since'], info.mtimeMs)
    ) {
      return finish(res, 304)
    }

    let range: ByteRange | undefined
    const rangeHeader = req.headers.range
    if (rangeHeader !== undefined && !decode) {
      const ifRange = req.headers['if-range'] as string | undefined
      const rangeApplies =
        ifRange === undefined || (ifRange.startsWith('"') ? ifRange === etag : ifRange === lastModified)
      if (rangeApplies) {
        const parsed = parseRange(rangeHeader, size)
        if (parsed === 'unsatisfiable') {
          res.setHeader('Content-Range', `bytes */${size}`)
          return finish(res, 416)
        }
        range = parsed
      }
    }

    if (range) {
      res.statusCode = 206
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
      res.setHeader('Content-Length', range.end - range.start + 1)
    } else {
      res.statusCode = 200
      // Decoded on the fly, the length is known only from the manifest, and only while the
      // .gz opened is the one it describes; otherwise the body goes chunked.
      if (!decode) res.setHeader('Content-Length', size)
      else if (asRecorded) res.setHeader('Content-Length', file.size)
    }
    if (req.method === 'HEAD') {
      res.end()
      return true
    }
    const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {})
    streaming = true // the stream closes the handle when it ends or fails
    await (decode ? pipeline(stream, createGunzip(), res) : pipeline(stream, res))
    return true
  } finally {
    if (!streaming) await handle.close().catch(() => {})
  }
}

function finish(res: ServerResponse, status: number): true {
  res.statusCode = status
  if (status === 304) {
    res.removeHeader('Content-Type')
    res.removeHeader('Accept-Ranges')
  }
  res.end()
  return true
}
