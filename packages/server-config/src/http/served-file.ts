/**
 * What serving one file needs to know of it, whoever stores the bytes: its Content-Type and
 * Cache-Control, the representations that exist (the original when stored, each variant
 * smallest first, each delta) with their sizes and ETags, Last-Modified and `Use-As-Dictionary`.
 * The serving specification (`spec.ts`) answers from this alone. It is built from the manifest
 * (`servedFileOf`), from the disk for a file no manifest lists (`site/disk.ts`), and it is the
 * shape of the Cloudflare Worker's generated site data (`cloudflare/site-data.ts`).
 */
import { type ManifestFile, useAsDictionaryHeader } from '@preencode/core'
import { etagOf } from './conditional.js'
import type { DeltaEntry } from './dictionary-delta.js'
import type { Encoding } from './negotiate.js'

/** One stored representation: its path relative to the site root (no leading slash), its size, its ETag. */
interface StoredRepresentation {
  path: string
  size: number
  etag: string
}

interface StoredVariant extends StoredRepresentation {
  encoding: Encoding
}

export interface ServedFile {
  contentType: string
  cacheControl: string
  /** `Last-Modified` (an HTTP date, whole seconds). */
  lastModified: string
  /** The original, when it is stored (`keepOriginals`); else the gzip variant is decoded. */
  original?: StoredRepresentation
  /** The ETag of the decoded original (its sha256), for `keepOriginals: false`. */
  originalEtag: string
  originalSize: number
  /** Variants, smallest first (the order `negotiate` takes). */
  variants: StoredVariant[]
  /** Deltas (RFC 9842): only these are ever sent as deltas, whatever other files are named. */
  deltas?: DeltaEntry[]
  /** The `Use-As-Dictionary` header value. */
  useAsDictionary?: string
  /** `Vary: Accept-Encoding` even without variants (a compressible file the next build may compress). */
  varies?: boolean
}

/** Seconds whose HTTP date is remembered (a site's files share a few build times). */
const MAX_DATES = 256
const DATES = new Map<number, string>()

/** The HTTP date of a modification time, whole seconds (remembered per second). */
export function httpDate(mtimeMs: number): string {
  const seconds = Math.floor(mtimeMs / 1000)
  let date = DATES.get(seconds)
  if (date === undefined) {
    if (DATES.size >= MAX_DATES) DATES.delete(DATES.keys().next().value as number)
    date = new Date(seconds * 1000).toUTCString()
    DATES.set(seconds, date)
  }
  return date
}

/** A manifest file as the specification reads it. Pure. */
export function servedFileOf(file: ManifestFile): ServedFile {
  const variants = [...file.variants]
    .sort((a, b) => a.size - b.size)
    .map((v) => ({ encoding: v.encoding, path: v.path, size: v.size, etag: etagOf(v.sha256) }))
  const served: ServedFile = {
    contentType: file.contentType,
    cacheControl: file.cacheControl,
    lastModified: httpDate(file.mtimeMs),
    originalEtag: etagOf(file.sha256),
    originalSize: file.size,
    variants,
  }
  if (file.originalOnDisk) served.original = { path: file.path, size: file.size, etag: etagOf(file.sha256) }
  if (file.deltas && file.deltas.length > 0)
    served.deltas = file.deltas.map(({ encoding, dictionary, path, size, sha256 }) => ({
      encoding,
      dictionary,
      path,
      size,
      sha256,
    }))
  if (file.useAsDictionary !== undefined)
    served.useAsDictionary = useAsDictionaryHeader(
      file.useAsDictionary,
      file.matchDest ? { matchDest: file.matchDest } : {},
    )
  return served
}
