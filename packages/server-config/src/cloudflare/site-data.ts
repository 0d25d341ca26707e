/**
 * The data file the Cloudflare Worker imports (`preencode-site.js`): for every file of the
 * manifest, what the Worker needs to answer without asking anyone — its Content-Type and
 * Cache-Control, the representations that exist (the original when on disk, each variant
 * smallest first, each delta by dictionary) with their sizes and ETags, Last-Modified and
 * `Use-As-Dictionary`. Generated from the manifest at `config` time and bundled into the Worker
 * by wrangler, so no request costs a round trip to find out which variants exist.
 */
import { useAsDictionaryHeader, type Manifest } from '@preencode/core'
import { etagOf } from '../http/conditional.js'
import type { DeltaEntry } from '../http/dictionary-delta.js'
import type { Encoding } from '../http/negotiate.js'

/** Version of the data format; the runtime refuses another. */
export const WORKER_SITE_VERSION = 1

/** One stored representation: its path in the assets, its size, its ETag. */
export interface WorkerRepresentation {
  /** Path of the stored file relative to the assets root (no leading slash). */
  path: string
  size: number
  etag: string
}

export interface WorkerVariant extends WorkerRepresentation {
  encoding: Encoding
}

/** A delta (RFC 9842) as `chooseDelta` reads it. */
export type WorkerDelta = DeltaEntry

export interface WorkerFile {
  contentType: string
  cacheControl: string
  /** `Last-Modified` (an HTTP date, whole seconds). */
  lastModified: string
  /** The original, when it is in the assets (`keepOriginals`); else the gzip variant is decoded. */
  original?: WorkerRepresentation
  /** The ETag of the decoded original (its sha256), for `keepOriginals: false`. */
  originalEtag: string
  originalSize: number
  /** Variants, smallest first (the order `negotiate` takes). */
  variants: WorkerVariant[]
  deltas?: WorkerDelta[]
  useAsDictionary?: string
}

export interface WorkerSite {
  version: typeof WORKER_SITE_VERSION
  generator: string
  /** File served for a URL ending in `/`. */
  index: string
  /** Paths the Worker answers 404 for even if asked (the manifest, deploy state). */
  hidden: string[]
  /** Files by path relative to the root, no leading slash. */
  files: Record<string, WorkerFile>
}

/** Builds the data from a manifest. Pure. */
export function workerSiteData(manifest: Manifest, options: { index: string; hidden: string[] }): WorkerSite {
  const files: Record<string, WorkerFile> = {}
  for (const file of manifest.files) {
    const variants = [...file.variants]
      .sort((a, b) => a.size - b.size)
      .map((v) => ({ encoding: v.encoding, path: v.path, size: v.size, etag: etagOf(v.sha256) }))
    const entry: WorkerFile = {
      contentType: file.contentType,
      cacheControl: file.cacheControl,
      lastModified: new Date(Math.floor(file.mtimeMs / 1000) * 1000).toUTCString(),
      originalEtag: etagOf(file.sha256),
      originalSize: file.size,
      variants,
    }
    if (file.originalOnDisk) entry.original = { path: file.path, size: file.size, etag: etagOf(file.sha256) }
    if (file.deltas && file.deltas.length > 0)
      entry.deltas = file.deltas.map(({ encoding, dictionary, path, size, sha256 }) => ({
        encoding,
        dictionary,
        path,
        size,
        sha256,
      }))
    if (file.useAsDictionary !== undefined)
      entry.useAsDictionary = useAsDictionaryHeader(
        file.useAsDictionary,
        file.matchDest ? { matchDest: file.matchDest } : {},
      )
    files[file.path] = entry
  }
  return {
    version: WORKER_SITE_VERSION,
    generator: manifest.generator,
    index: options.index,
    hidden: options.hidden,
    files,
  }
}
