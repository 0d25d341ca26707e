/**
 * Which delta answers a request (RFC 9842), for the Node middleware and `vite preview`: only a
 * valid `Available-Dictionary` (exactly one sf-binary SHA-256, `parseAvailableDictionary`) is
 * looked up, and only among the deltas the manifest lists for the requested file, so the header
 * never reaches a path. The coding must be named in Accept-Encoding with q > 0: browsers list
 * `dcb` and `dcz` explicitly, and `*` is not taken to mean a dictionary the client may not hold.
 */

import type { ManifestDelta } from '@preencode/core'
import { parseAvailableDictionary } from '@preencode/core/internal'
import { parseAcceptEncoding } from './negotiate.js'

/** What answering with a delta needs of it (the manifest's entry, or the Cloudflare Worker's data). */
export type DeltaEntry = Pick<ManifestDelta, 'encoding' | 'dictionary' | 'path' | 'size' | 'sha256'>

/** A file's deltas by dictionary id (the header value without colons), smallest first. */
export type DeltaIndex = ReadonlyMap<string, readonly DeltaEntry[]>

const NONE: DeltaIndex = new Map()

export function deltasByDictionary(file: { deltas?: readonly DeltaEntry[] | undefined }): DeltaIndex {
  if (!file.deltas || file.deltas.length === 0) return NONE
  const index = new Map<string, DeltaEntry[]>()
  for (const delta of [...file.deltas].sort((a, b) => a.size - b.size))
    index.set(delta.dictionary, [...(index.get(delta.dictionary) ?? []), delta])
  return index
}

/** The smallest delta for this request, or undefined: then the request is answered as if deltas did not exist. */
export function chooseDelta(
  index: DeltaIndex,
  availableDictionary: string | string[] | undefined,
  acceptEncoding: string | undefined,
): DeltaEntry | undefined {
  if (index.size === 0 || acceptEncoding === undefined) return undefined
  const id = parseAvailableDictionary(availableDictionary)
  if (id === undefined) return undefined
  const candidates = index.get(id)
  if (!candidates) return undefined
  const accepted = parseAcceptEncoding(acceptEncoding).codings
  return candidates.find((delta) => (accepted.get(delta.encoding) ?? 0) > 0)
}
