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
 * The dictionary is kept from build to build (the same bytes, so the same name and the same pages:
 * a returning visitor fetches nothing) while the visitors' copy still holds most of what a fresh
 * one would: every refresh costs each returning visitor a delta of about the code that changed, a
 * second time after the chunks' own deltas, while a kept one costs only the chunks with new names
 * the code they gained since it was built (issue 37: on Vitest's UI, whose chunks never change
 * names, the refetched dictionary was half of what a returning visitor downloaded).
 *
 * Like the page dictionary it is off by default, because it edits the pages (one `<link>` each).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants } from 'node:zlib'
import { assetDictionaryName, isAssetDictionary } from '../http/page-dictionary-name.js'
import { versionedAsset } from '../http/use-as-dictionary.js'
import type { PreviousVersionSource } from './previous-versions.js'
import { isScannedPage, publishDictionary, scannedFiles } from './publish-dictionary.js'

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
/**
 * A fresh dictionary replaces the one visitors hold only when more than this share of it is new to
 * them (its brotli size against the held one over its brotli size alone, both at
 * {@link ESTIMATE_QUALITY}): below it, the held one still holds three quarters of the code, and
 * what the refresh would cost every returning visitor is at least what it would save the chunks
 * with new names of the next build.
 */
const REFRESH_SHARE = 0.25
/** A quick brotli for that estimate (two encodes of at most a MiB), not the delta sent. */
const ESTIMATE_QUALITY = 5
/** Content-hashed scripts and styles: what the asset dictionary is made of, and what gets deltas against it. */
const CODE = /\.(?:m?js|css)$/

/** Whether a site path is a script or style with a content-hashed name (a candidate for deltas against the asset dictionary). */
export function isVersionedCode(path: string): boolean {
  return CODE.test(path) && versionedAsset(path) !== undefined
}

export interface AssetDictionaryResult {
  /** The dictionary's path relative to the root: `preencode-assets-<hash>.txt`. */
  path: string
  /** Scripts and styles a fresh one holds (this build's). */
  files: number
  /** Pages whose HTML got the link this run. */
  linked: number
  bytes: number
  /** Whether it is the dictionary of an earlier build, kept (visitors hold it already). */
  kept: boolean
}

type BrotliCall = (buf: Uint8Array, options: object, callback: (error: Error | null, result: Buffer) => void) => void
/** Node 24.15 added `dictionary` to the brotli options; @types/node does not list it yet. */
const brotli = promisify<Uint8Array, object, Buffer>(brotliCompress as BrotliCall)

/** The newest asset dictionary of the builds `source` remembers (what a returning visitor holds). */
async function heldDictionary(source: PreviousVersionSource | undefined): Promise<Buffer | undefined> {
  const held = (await source?.list())
    ?.filter((v) => isAssetDictionary(v.path))
    .sort((a, b) => a.generation - b.generation)[0]
  return held?.read()
}

/** The share of `fresh` that is new to a visitor holding `held` (see {@link REFRESH_SHARE}). */
async function newShare(fresh: Buffer, held: Buffer): Promise<number> {
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: ESTIMATE_QUALITY,
    [constants.BROTLI_PARAM_LGWIN]: 24,
    [constants.BROTLI_PARAM_SIZE_HINT]: fresh.byteLength,
  }
  const [alone, against] = await Promise.all([brotli(fresh, { params }), brotli(fresh, { params, dictionary: held })])
  return against.byteLength / Math.max(1, alone.byteLength)
}

/**
 * Builds the dictionary from the site's content-hashed scripts and styles (the smallest first up
 * to {@link ASSET_DICTIONARY_BYTES} and `maxBytes`, laid end to end in path order), or keeps the
 * newest one `history` remembers while the fresh one would add little to it
 * ({@link REFRESH_SHARE}), writes it under its hashed name (removing the
 * asset dictionaries of earlier runs from the root: the name is ours), and links it from every
 * page that has a `<head>` and no dictionary link of someone else. Returns undefined (and changes
 * nothing) for a site without such files.
 */
export async function prepareAssetDictionary(
  dir: string,
  maxBytes: number,
  history?: PreviousVersionSource,
): Promise<AssetDictionaryResult | undefined> {
  const files = await scannedFiles(dir)
  const code = files.filter(isVersionedCode)
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
  const fresh = Buffer.concat(chosen.map((file) => file.bytes))
  const held = await heldDictionary(history)
  const kept =
    held !== undefined &&
    held.byteLength > 0 &&
    held.byteLength <= limit &&
    (held.equals(fresh) || (await newShare(fresh, held)) <= REFRESH_SHARE)
  const dictionary = kept ? held : fresh
  const name = assetDictionaryName(dictionary)
  const linked = await publishDictionary(
    dir,
    { kind: 'assets', name, bytes: dictionary, isEarlier: isAssetDictionary },
    files.filter(isScannedPage),
  )
  return { path: name, files: chosen.length, linked, bytes: dictionary.byteLength, kept }
}
