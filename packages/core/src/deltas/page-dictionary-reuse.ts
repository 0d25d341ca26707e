// A rerun on the pages the previous run linked: the dictionary that run wrote is the one a
// rebuild would make (the builder is deterministic), so it is read back instead of built again
// (1-4 s on a 400-page site, most of a warm run with `pages` on). Everything compared comes from
// the site folder itself (its manifest, pages and dictionary file), nothing from the cache. A
// preencode whose builder changed keeps the old dictionary until a page changes.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { sha256Hex } from '../hash.js'
import { isPageDictionary, pageDictionaryName } from '../http/page-dictionary-name.js'
import { MANIFEST_FILENAME, type Manifest, readManifest } from '../manifest/manifest.js'
import { isScannedPage } from './publish-dictionary.js'

/**
 * The page dictionary the previous run wrote, when it was built at `size` from exactly these
 * pages: the same paths, each page still the bytes the manifest records (our link included),
 * and the dictionary file still the bytes its name and the manifest say. Otherwise undefined.
 */
export async function previousPageDictionary(
  dir: string,
  pages: readonly string[],
  texts: readonly string[],
  size: number,
): Promise<{ name: string; bytes: Buffer } | undefined> {
  const manifest: Manifest | undefined = await readManifest(dir).catch(() => undefined)
  const recorded = manifest?.settings?.deltas
  if (!manifest || recorded?.pages !== true || recorded.pageDictionaryBytes !== size) return undefined
  const dictionary = manifest.files.find((f) => isPageDictionary(f.path) && f.originalOnDisk)
  if (!dictionary) return undefined
  const recordedPages = new Map(
    manifest.files.filter((f) => isScannedPage(f.path) && f.path !== MANIFEST_FILENAME).map((f) => [f.path, f.sha256]),
  )
  if (recordedPages.size !== pages.length) return undefined
  for (const [i, page] of pages.entries()) {
    if (recordedPages.get(page) !== sha256Hex(texts[i]!)) return undefined
  }
  const bytes = await readFile(join(dir, dictionary.path)).catch(() => undefined)
  if (!bytes || sha256Hex(bytes) !== dictionary.sha256 || pageDictionaryName(bytes) !== dictionary.path)
    return undefined
  return { name: dictionary.path, bytes }
}
