/**
 * The asset dictionary (RFC 9842): the build's scripts and styles laid end to end, published at
 * the site root under a content-hashed name (`preencode-assets-<16 hex of its sha256>.txt`),
 * announced from every page with `<link rel="compression-dictionary" href="…">` and served with
 * `Use-As-Dictionary: match="*"` (every URL under the site's folder, any destination).
 *
 * What it is for: a chunk of the next build whose name stem is new (code split differently, a new
 * lazy route, a renamed module) matches no earlier version's `match`, so without it that chunk
 * goes as plain br although most of its code was in this build under another name. With it, the
 * next build's scripts and styles get deltas against this dictionary too. A chunk whose stem did
 * survive still gets its own previous version: RFC 9842 §2.2.2 has the browser pick, among the
 * dictionaries that match a request, the one with the longest `match` (`index-*.js` is longer
 * than `*`), and `match-dest` is left out on purpose, since a dictionary that names a matching
 * destination outranks one that does not. The visitor fetches the dictionary when idle; from the
 * second build on it is itself a delta against the previous build's (same `*` match).
 *
 * Like the page dictionary it is off by default, because it edits the pages (one `<link>` each).
 */
import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { glob } from 'tinyglobby'
import { writeFileAtomically } from '../fs/write.js'
import { assetDictionaryName, isAssetDictionary } from '../http/page-dictionary-name.js'
import { versionedAsset } from '../http/use-as-dictionary.js'
import { hrefFrom, relink } from './dictionary-link.js'

/** The `Use-As-Dictionary` of the asset dictionary: every URL under its folder (the site root), any destination. */
export const ASSET_DICTIONARY_MATCH = '*'
/**
 * The asset dictionary's size at most (and never over `maxDictionaryBytes`): the smallest scripts
 * and styles go in first. The largest chunks (vendor code, the entry) keep their names from build
 * to build and have their own previous versions; the code that moves to new names is mostly in the
 * smaller ones (lazy routes, split modules). Every byte of it is paid three times: the visitor's
 * first fetch, one more file to compress at every build, and the deltas written against it.
 */
const ASSET_DICTIONARY_BYTES = 1024 * 1024
/** Content-hashed scripts and styles: what the asset dictionary is made of, and what gets deltas against it. */
const CODE = /\.(?:m?js|css)$/

/** Whether a site path is a script or style with a content-hashed name (a candidate for deltas against the asset dictionary). */
export function isVersionedCode(path: string): boolean {
  return CODE.test(path) && versionedAsset(path) !== undefined
}

export interface AssetDictionaryResult {
  /** The dictionary's path relative to the root: `preencode-assets-<hash>.txt`. */
  path: string
  /** Scripts and styles in it. */
  files: number
  /** Pages whose HTML got the link this run. */
  linked: number
  bytes: number
}

/**
 * Builds the dictionary from the site's content-hashed scripts and styles (the smallest first up
 * to {@link ASSET_DICTIONARY_BYTES} and `maxBytes`, laid end to end in path order), writes it under its hashed name (removing the
 * asset dictionaries of earlier runs from the root: the name is ours), and links it from every
 * page that has a `<head>` and no dictionary link of someone else. Returns undefined (and changes
 * nothing) for a site without such files.
 */
export async function prepareAssetDictionary(
  dir: string,
  maxBytes: number,
): Promise<AssetDictionaryResult | undefined> {
  const scan = (patterns: string[]): Promise<string[]> =>
    glob(patterns, {
      cwd: dir,
      onlyFiles: true,
      dot: false,
      expandDirectories: false,
      ignore: ['**/*.dict/**', '**/node_modules/**'],
    })
  const code = (await scan(['**/*.js', '**/*.mjs', '**/*.css'])).filter(isVersionedCode)
  const contents = await Promise.all(code.map(async (path) => ({ path, bytes: await readFile(join(dir, path)) })))
  contents.sort((a, b) => a.bytes.byteLength - b.bytes.byteLength || (a.path < b.path ? -1 : 1))
  let total = 0
  const limit = Math.min(maxBytes, ASSET_DICTIONARY_BYTES)
  const chosen = contents.filter((file) => {
    if (file.bytes.byteLength === 0 || total + file.bytes.byteLength > limit) return false
    total += file.bytes.byteLength
    return true
  })
  if (chosen.length === 0) return undefined
  chosen.sort((a, b) => (a.path < b.path ? -1 : 1))
  const dictionary = Buffer.concat(chosen.map((file) => file.bytes))
  const name = assetDictionaryName(dictionary)
  const target = join(dir, name)
  const previous = await readFile(target).catch(() => undefined)
  if (!previous?.equals(dictionary)) await writeFileAtomically(target, dictionary)
  let linked = 0
  for (const page of (await scan(['**/*.html'])).sort()) {
    const html = await readFile(join(dir, page), 'utf8')
    const withLink = relink(html, 'assets', hrefFrom(page, name))
    if (withLink !== html) {
      await writeFileAtomically(join(dir, page), withLink)
      linked++
    }
  }
  for (const entry of await readdir(dir)) {
    if (entry !== name && isAssetDictionary(entry)) await rm(join(dir, entry), { force: true })
  }
  return { path: name, files: chosen.length, linked, bytes: dictionary.byteLength }
}
