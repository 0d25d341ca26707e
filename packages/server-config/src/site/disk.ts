/**
 * Files the manifest does not describe, as a sirv or express.static user expects them to be
 * served (issue 19): a file on disk is served even when no manifest lists it.
 *
 * - **A manifest exists but does not list the file** (a new asset copied in before the next
 *   compress rewrote the manifest): the original as it is, identity, with the headers every
 *   response gets (type, length, Last-Modified, an ETag from size and mtime, Cache-Control by
 *   class, nosniff, Range and conditionals). Sidecars beside it are not trusted: the manifest
 *   that would vouch for them does not name them yet.
 * - **No manifest at all** (a folder copied by hand, or deployed by a preencode from before the
 *   deploy left its manifest there, issue 36.3): the variants are the sidecars beside the file (`.br`, `.zst`, `.gz`), as nginx's
 *   and Apache's generated configs find them, smallest first; a delta is the file
 *   `<file>.dict/<id><ext>.dcb|dcz` for the request's valid `Available-Dictionary` (the path is
 *   built from the validated id only, as the servers do); `Use-As-Dictionary` is derived from
 *   the name (content-hashed versioned assets, the page dictionary), as the configs derive it.
 */
import {
  ALL_FORMATS,
  CODECS,
  contentTypeOf,
  isCompressible,
  type ManifestDelta,
  type ManifestFile,
  type ManifestVariant,
  versionedAsset,
} from '@preencode/core'
import {
  ASSET_DICTIONARY_MATCH,
  cacheClassOf,
  DICTIONARY_ENCODINGS,
  deltaPath,
  isAssetDictionary,
  isPageDictionary,
  isSafeRelativePath,
  originalOfDeltaPath,
  PAGE_DICTIONARY_MATCH,
  PAGE_DICTIONARY_MATCH_DEST,
  parseAvailableDictionary,
  resolveCachePolicy,
} from '@preencode/core/internal'
import { servedFileOf } from '../http/served-file.js'
import type { DiskContext, Entry } from './manifest.js'
import type { SiteRoot } from './site-root.js'

/** Files larger than this are not announced as dictionaries (core's `maxDictionaryBytes` default). */
const MAX_DICTIONARY_BYTES = 16 * 1024 * 1024
const POLICY = resolveCachePolicy()
/** A sidecar's suffix: `app.js.br` is a representation of `app.js`, not a file of its own. */
const SIDECAR = /\.(?:br|gz|zst)$/

/**
 * Sidecars of compressible files and deltas are representations, not files: passed on when
 * asked for by their own URL, as when the manifest lists them (`x.tar.gz` is a file: `x.tar` is
 * not compressible). A delta is known by the manifest that lists it, never by its name alone
 * (issue 29: a user's own `my.dict/` folder holds files); without a manifest, by its name and
 * its original beside it, as the servers find deltas.
 */
async function isRepresentation(root: SiteRoot, relative: string, context: DiskContext): Promise<boolean> {
  if (context.representations.has(relative)) return true
  if (SIDECAR.test(relative) && isCompressible(relative.replace(SIDECAR, ''))) return true
  if (context.manifest) return false
  const original = originalOfDeltaPath(relative)
  return original !== undefined && (await root.fileInfo(original)) !== undefined
}

interface FileFacts {
  size: number
  mtimeMs: number
}

/**
 * With no manifest to vouch for a sidecar, its time does: preencode gives a variant its original's
 * mtime (or a later one), and gzip, brotli and zstd keep it too, so a sidecar older than the file
 * beside it was made from an earlier version (the file was rewritten after it was encoded) and is
 * never sent. A variant is sent only while it can be the encoding of the file beside it.
 */
function olderThan(sidecar: FileFacts, original: FileFacts): boolean {
  return sidecar.mtimeMs < original.mtimeMs - 1
}

/** An entry for `relative` described from the disk, or undefined when there is nothing to serve. */
export async function diskEntry(
  root: SiteRoot,
  relative: string,
  availableDictionary: string | undefined,
  context: DiskContext,
): Promise<Entry | undefined> {
  if (!isSafeRelativePath(relative) || (await isRepresentation(root, relative, context))) return undefined
  const original = await root.fileInfo(relative)
  const withSidecars = !context.manifest && isCompressible(relative)
  const variants: ManifestVariant[] = []
  if (withSidecars) {
    for (const format of ALL_FORMATS) {
      const path = `${relative}${CODECS[format].extension}`
      const info = await root.fileInfo(path)
      if (info && (!original || (info.size < original.size && !olderThan(info, original))))
        variants.push({ format, encoding: CODECS[format].encoding, path, size: info.size, sha256: '' })
    }
  }
  if (!original && !variants.some((v) => v.format === 'gzip')) return undefined
  variants.sort((a, b) => a.size - b.size)
  const cacheClass = cacheClassOf(relative, POLICY)
  const file: ManifestFile = {
    path: relative,
    size: original?.size ?? -1,
    sha256: '',
    mtimeMs: original?.mtimeMs ?? -1,
    contentType: contentTypeOf(relative),
    cacheClass,
    cacheControl: context.cacheControl[cacheClass],
    originalOnDisk: original !== undefined,
    variants,
  }
  if (!context.manifest) {
    const asset = cacheClass === 'immutable' ? versionedAsset(relative) : undefined
    if (asset && (original?.size ?? 0) <= MAX_DICTIONARY_BYTES) file.useAsDictionary = asset.match
    if (isPageDictionary(relative)) {
      file.useAsDictionary = PAGE_DICTIONARY_MATCH
      file.matchDest = [...PAGE_DICTIONARY_MATCH_DEST]
    }
    if (isAssetDictionary(relative)) file.useAsDictionary = ASSET_DICTIONARY_MATCH
  }
  const deltas = withSidecars && original ? await deltasOnDisk(root, relative, availableDictionary, original) : []
  if (deltas.length > 0) file.deltas = deltas
  const served = servedFileOf(file)
  // Variants may exist later (the next compress): a cache must not keep this answer for every client.
  if (isCompressible(relative)) served.varies = true
  return { served, mtimeMs: file.mtimeMs, onDisk: true }
}

/** The deltas on disk for the request's dictionary, smallest first (none without a valid id). */
async function deltasOnDisk(
  root: SiteRoot,
  relative: string,
  availableDictionary: string | undefined,
  original: FileFacts,
): Promise<ManifestDelta[]> {
  const id = parseAvailableDictionary(availableDictionary)
  if (id === undefined) return []
  const found: ManifestDelta[] = []
  for (const encoding of DICTIONARY_ENCODINGS) {
    const path = deltaPath(relative, id, encoding)
    const info = await root.fileInfo(path)
    if (info && !olderThan(info, original))
      found.push({ encoding, dictionary: id, dictionaryPath: '', path, size: info.size, sha256: '' })
  }
  return found.sort((a, b) => a.size - b.size)
}
