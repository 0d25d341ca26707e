/**
 * A connect/express-compatible middleware (`(req, res, next)`, Node's http only) that serves a
 * preencode output directory by the same rules as the generated server configs: RFC 9110
 * negotiation (`negotiate.ts`), one `Vary: Accept-Encoding`, the original's Content-Type,
 * Content-Length, an ETag per representation (from the manifest's sha256 of those bytes),
 * HEAD, single byte ranges, If-None-Match / If-Modified-Since / If-Range / If-Match,
 * Cache-Control from the manifest, nosniff, directory index, the manifest never served.
 * With `keepOriginals: false` the gzip variant is decoded on the fly for clients that take no
 * coding (no Range then: the decoded bytes are streamed).
 *
 * Requests for paths the manifest does not list go to `next()`, so the middleware can sit in
 * front of any other static handler.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { MANIFEST_FILENAME, readManifest, type Manifest, type ManifestFile } from '@preencode/core'
import { negotiate, type Encoding } from './negotiate.js'
import { parseRange, type ByteRange } from './range.js'

export interface PreencodeMiddlewareOptions {
  /**
   * The manifest to serve by; read from `<root>/.preencode-manifest.json` on the first request
   * when not given.
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

interface Entry {
  file: ManifestFile
  /** Variants by coding, smallest first. */
  codings: Encoding[]
}

const ETAG_LENGTH = 32

function indexManifest(manifest: Manifest): Map<string, Entry> {
  const byPath = new Map<string, Entry>()
  for (const file of manifest.files) {
    const variants = [...file.variants].sort((a, b) => a.size - b.size)
    byPath.set(file.path, { file, codings: variants.map((v) => v.encoding) })
  }
  return byPath
}

/** Creates the middleware for a preencode output directory. */
export function createPreencodeMiddleware(root: string, options: PreencodeMiddlewareOptions = {}): PreencodeMiddleware {
  const index = options.index ?? 'index.html'
  let entries: Promise<Map<string, Entry>> | undefined = options.manifest ? Promise.resolve(indexManifest(options.manifest)) : undefined
  const load = (): Promise<Map<string, Entry>> => {
    entries ??= readManifest(root).then(indexManifest)
    // A failed read is retried on the next request (the build may not have finished yet).
    entries.catch(() => { entries = undefined })
    return entries
  }

  return (req, res, next) => {
    const pass = (error?: unknown): void => {
      if (res.headersSent) res.destroy(error instanceof Error ? error : undefined)
      else if (next) next(error)
      else if (error) { res.statusCode = 500; res.end() } else { res.statusCode = 404; res.end() }
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
    load().then((map) => {
      const entry = map.get(relative)
      if (!entry) return pass()
      return serve(root, entry, req, res).then((served) => { if (!served) pass() })
    }).catch(pass)
  }
}

function etagOf(sha256: string): string {
  return `"${sha256.slice(0, ETAG_LENGTH)}"`
}

/** RFC 9110 §13.1.2: weak comparison, `*`, lists. */
function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true
  const opaque = etag.replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque)
}

/** RFC 9110 §13.1.1: strong comparison. */
function match(header: string, etag: string): boolean {
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim() === etag)
}

function notModifiedSince(header: string, mtimeMs: number): boolean {
  const since = Date.parse(header)
  return !Number.isNaN(since) && Math.floor(mtimeMs / 1000) * 1000 <= since
}

async function serve(root: string, entry: Entry, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const { file, codings } = entry
  const header = req.headers['accept-encoding']
  const chosen = negotiate(Array.isArray(header) ? header.join(',') : header, codings)
  // Nothing acceptable: send the original anyway, as RFC 9110 §12.5.3 allows (like the servers).
  const coding: Encoding | 'identity' = chosen ?? 'identity'
  const variant = coding === 'identity' ? undefined : file.variants.find((v) => v.encoding === coding)
  const decode = coding === 'identity' && !file.originalOnDisk
  const source = variant?.path ?? (decode ? file.variants.find((v) => v.encoding === 'gzip')?.path : file.path)
  if (source === undefined) return false
  let info
  try {
    info = await stat(join(root, source))
  } catch {
    return false
  }
  if (!info.isFile()) return false
  const size = variant?.size ?? file.size
  const etag = etagOf(variant?.sha256 ?? file.sha256)
  const lastModified = new Date(Math.floor(info.mtimeMs / 1000) * 1000).toUTCString()

  res.setHeader('Content-Type', file.contentType)
  if (codings.length > 0) res.setHeader('Vary', 'Accept-Encoding')
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
  } else if (req.headers['if-modified-since'] !== undefined && notModifiedSince(req.headers['if-modified-since'], info.mtimeMs)) {
    return finish(res, 304)
  }

  let range: ByteRange | undefined
  const rangeHeader = req.headers.range
  if (rangeHeader !== undefined && !decode) {
    const ifRange = req.headers['if-range'] as string | undefined
    const rangeApplies = ifRange === undefined || (ifRange.startsWith('"') ? ifRange === etag : ifRange === lastModified)
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
    res.setHeader('Content-Length', size)
  }
  if (req.method === 'HEAD') {
    res.end()
    return true
  }
  const stream = createReadStream(join(root, source), range ? { start: range.start, end: range.end } : {})
  await (decode ? pipeline(stream, createGunzip(), res) : pipeline(stream, res))
  return true
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
