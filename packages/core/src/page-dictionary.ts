/**
 * The shared dictionary for pages (RFC 9842): built from the site's HTML pages, published at a
 * fixed name at the site root, announced from every page with
 * `<link rel="compression-dictionary" href="…">` (a relative href, so any base path works and no
 * server needs a rule for it), and served with `Use-As-Dictionary: match="*",
 * match-dest=("document")` so that a later page navigation arrives as a delta against it.
 *
 * This runs before compression: the link goes into the pages first, so their variants carry it.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { glob } from 'tinyglobby'
import { buildDictionary } from './dictionary-builder.js'
import { writeFileAtomically } from './write.js'

/** Where the page dictionary lives, relative to the site root (a stable name: see the docs). */
export const PAGE_DICTIONARY_PATH = 'preencode-dictionary.txt'
/** The `Use-As-Dictionary` of the page dictionary: every page under its folder, documents only. */
export const PAGE_DICTIONARY_MATCH = '*'
export const PAGE_DICTIONARY_MATCH_DEST: readonly string[] = Object.freeze(['document'])
/** Fewer pages than this: nothing to share. */
const MIN_PAGES = 2
const LINK_MARKER = 'rel="compression-dictionary"'

export interface PageDictionaryResult {
  pages: number
  /** Pages whose HTML got the link this run. */
  linked: number
  bytes: number
  durationMs: number
}

/**
 * Adds the link to every page that has a `<head>` and none yet, then builds and writes the
 * dictionary from the pages. Returns undefined (and changes nothing) for a site with fewer
 * than two pages.
 */
export async function preparePageDictionary(dir: string, size: number): Promise<PageDictionaryResult | undefined> {
  const started = performance.now()
  const pages = (
    await glob(['**/*.html'], {
      cwd: dir,
      onlyFiles: true,
      dot: false,
      expandDirectories: false,
      ignore: ['**/*.dict/**', '**/node_modules/**'],
    })
  ).sort()
  if (pages.length < MIN_PAGES) return undefined
  const samples: Buffer[] = []
  let linked = 0
  for (const page of pages) {
    const path = join(dir, page)
    const html = await readFile(path, 'utf8')
    const withLink = html.includes(LINK_MARKER) ? html : addLink(html, hrefFrom(page))
    if (withLink !== html) {
      await writeFileAtomically(path, withLink)
      linked++
    }
    samples.push(Buffer.from(withLink))
  }
  const dictionary = buildDictionary(samples, { size })
  if (dictionary.byteLength === 0) return undefined
  const target = join(dir, PAGE_DICTIONARY_PATH)
  const previous = await readFile(target).catch(() => undefined)
  if (!previous?.equals(dictionary)) await writeFileAtomically(target, dictionary)
  return { pages: pages.length, linked, bytes: dictionary.byteLength, durationMs: performance.now() - started }
}

/** `docs/a/index.html` -> `../../preencode-dictionary.txt`. */
function hrefFrom(page: string): string {
  const depth = page.split('/').length - 1
  return `${'../'.repeat(depth)}${PAGE_DICTIONARY_PATH}`
}

function addLink(html: string, href: string): string {
  const tag = `<link ${LINK_MARKER} href="${href}">`
  const head = /<head(?:\s[^>]*)?>/i.exec(html)
  if (!head) return html
  const at = head.index + head[0].length
  return `${html.slice(0, at)}${tag}${html.slice(at)}`
}

/** Whether `relativePath` (POSIX) is the page dictionary. */
export function isPageDictionary(relativePath: string): boolean {
  return relativePath === PAGE_DICTIONARY_PATH
}
