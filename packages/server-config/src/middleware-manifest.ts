// The middleware's view of the manifest: indexed by path, and read again whenever the file on
// disk is replaced (a rebuild or a redeploy in place), without a restart.
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { MANIFEST_FILENAME, type Manifest, type ManifestFile, readManifest } from '@preencode/core'
import { type DeltaIndex, deltasByDictionary } from './dictionary-delta.js'
import type { Encoding } from './negotiate.js'

export interface Entry {
  file: ManifestFile
  /** Variants by coding, smallest first. */
  codings: Encoding[]
  deltas: DeltaIndex
}

export function indexManifest(manifest: Manifest): Map<string, Entry> {
  const byPath = new Map<string, Entry>()
  for (const file of manifest.files) {
    const variants = [...file.variants].sort((a, b) => a.size - b.size)
    byPath.set(file.path, { file, codings: variants.map((v) => v.encoding), deltas: deltasByDictionary(file) })
  }
  return byPath
}

/**
 * The manifest as it is on disk now. One `stat` per request (shared by the requests that
 * arrive together) tells whether it was replaced; a rebuild writes it atomically, so a read
 * sees the old or the new one, never half of it.
 */
export function manifestOnDisk(root: string): (force?: boolean) => Promise<Map<string, Entry>> {
  const path = join(root, MANIFEST_FILENAME)
  let loaded: { key: string; entries: Map<string, Entry> } | undefined
  let checking: Promise<Map<string, Entry>> | undefined
  const check = async (): Promise<Map<string, Entry>> => {
    const info = await stat(path).catch(() => undefined)
    const key = info ? `${info.ino}:${info.size}:${info.mtimeMs}` : 'missing'
    if (loaded?.key === key) return loaded.entries
    const entries = indexManifest(await readManifest(root))
    loaded = { key, entries }
    return entries
  }
  return (force = false) => {
    if (force) loaded = undefined
    // A failed read is retried on the next request (the build may not have finished yet).
    checking ??= check().finally(() => {
      checking = undefined
    })
    return checking
  }
}
