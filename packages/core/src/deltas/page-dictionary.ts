/**
 * The shared dictionary for pages (RFC 9842): built from the site's HTML pages, published at the
 * site root under a content-hashed name (`preencode-dictionary-<16 hex of its sha256>.txt`),
 * announced from every page with `<link rel="compression-dictionary" href="…">` (a relative href,
 * so any base path works and no server needs a rule for it), and served with
 * `Use-As-Dictionary: match="*", match-dest=("document")` so that a later page navigation
 * arrives as a delta against it.
 *
 * Why a hashed name: a browser uses a stored dictionary only while its response is fresh
 * (RFC 9842 §2.2.2). Under one stable name it could be cached only briefly (the default class,
 * an hour), so a visitor back the next day had no dictionary and got no page deltas. A hashed
 * name never changes its bytes, so it takes the content-hashed class (`immutable`, a year) like
 * any versioned asset; the link names this build's, and page deltas are also written against the
 * previous builds' dictionaries (`versions`), which visitors may still hold.
 *
 * The dictionary is built from the pages without our link (its name depends on the dictionary),
 * so a rerun on the same pages gives the same dictionary, name and link. This runs before
 * compression: the link goes into the pages first, so their variants carry it.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isPageDictionary, pageDictionaryName } from '../http/page-dictionary-name.js'
import { buildDictionary } from './dictionary-builder.js'
import { withoutOurLinks } from './dictionary-link.js'
import { previousPageDictionary } from './page-dictionary-reuse.js'
import { isScannedPage, publishDictionary, scannedFiles } from './publish-dictionary.js'

export { isPageDictionary, PAGE_DICTIONARY_NAME_PATTERN } from '../http/page-dictionary-name.js'
/** The `Use-As-Dictionary` of the page dictionary: every page under its folder, documents only. */
export const PAGE_DICTIONARY_MATCH = '*'
export const PAGE_DICTIONARY_MATCH_DEST: readonly string[] = Object.freeze(['document'])
/** Fewer pages than this: nothing to share. */
const MIN_PAGES = 2

export interface PageDictionaryResult {
  /** The dictionary's path relative to the root: `preencode-dictionary-<hash>.txt`. */
  path: string
  pages: number
  /** Pages whose HTML got the link this run. */
  linked: number
  bytes: number
  /** The previous run's dictionary, read back: the pages are those it was built from. */
  reused: boolean
  durationMs: number
}

/**
 * Builds the dictionary from the pages, writes it under its hashed name (removing the page
 * dictionaries of earlier runs from the root: the name is ours), and links it from every page
 * that has a `<head>` and no other compression-dictionary link. Returns undefined (and changes
 * nothing) for a site with fewer than two pages.
 */
export async function preparePageDictionary(dir: string, size: number): Promise<PageDictionaryResult | undefined> {
  const started = performance.now()
  const pages = (await scannedFiles(dir)).filter(isScannedPage)
  if (pages.length < MIN_PAGES) return undefined
  const texts = await Promise.all(pages.map((page) => readFile(join(dir, page), 'utf8')))
  const reused = await previousPageDictionary(dir, pages, texts, size)
  // Without our links: the dictionary (and so its name) depends on the pages alone.
  const dictionary =
    reused?.bytes ??
    buildDictionary(
      texts.map((html) => Buffer.from(withoutOurLinks(html))),
      { size },
    )
  if (dictionary.byteLength === 0) return undefined
  const name = pageDictionaryName(dictionary)
  // Earlier runs' dictionaries go once the pages name this one (visitors who hold one get deltas
  // through the pages' `.dict/` folders, written against the previous versions a deploy keeps).
  const isEarlier = (entry: string): boolean => isPageDictionary(entry) || entry === 'preencode-dictionary.txt'
  const linked = await publishDictionary(dir, { kind: 'page', name, bytes: dictionary, isEarlier }, pages, texts)
  return {
    path: name,
    pages: pages.length,
    linked,
    bytes: dictionary.byteLength,
    reused: reused !== undefined,
    durationMs: performance.now() - started,
  }
}
