// Where the two site dictionaries (`page-dictionary.ts`, `asset-dictionary.ts`) meet the site's
// files: which files they read, and how one is published — its file under its hashed name, our
// link in every page, the earlier ones removed. One place, so both keep the same rules:
//
// - They read the files the compression walk lists (`fs/walk.ts`): regular files, and symlinks
//   to files inside the site. Never a file reached through a symlinked folder, nor one a symlink
//   leads to outside the site: its text would be published in a dictionary, and a page there
//   rewritten (the walk warns about such links once, when the run compresses).
// - A page is the user's own file, not a variant: rewritten with our link, it keeps its mode
//   exactly (0640 stays 0640, 0755 stays 0755; the umask does not apply) and takes a new mtime
//   (its bytes changed: a server's Last-Modified and ETag must change with them).
// - A page that is a symlink is left alone, neither written through nor replaced by a copy (the
//   user's link stays a link): its target is a file of the site (the walk lists no other), linked
//   itself when it is a page, so the symlinked page shows the link through it.
import { lstat, readdir, readFile, realpath, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { walkDirectory } from '../fs/walk.js'
import { writeFileAtomically } from '../fs/write.js'
import { type DictionaryLinkKind, hrefFrom, relink } from './dictionary-link.js'

/** One of the site dictionaries, to publish at the site root. */
export interface SiteDictionary {
  kind: DictionaryLinkKind
  /** Its content-hashed file name at the root. */
  name: string
  bytes: Buffer
  /** Whether a root entry is one of this kind's earlier dictionaries (removed once the pages name `name`). */
  isEarlier(entry: string): boolean
}

/** Paths the dictionaries scan: no dot folder or file, nothing under `node_modules` or a `.dict/` folder. */
function isScanned(path: string): boolean {
  return !path.split('/').some((part) => part.startsWith('.') || part === 'node_modules' || part.endsWith('.dict'))
}

/** Whether a site path is a page the dictionaries read and link (`**\/*.html`, scanned). */
export function isScannedPage(path: string): boolean {
  return path.endsWith('.html') && isScanned(path)
}

/**
 * The site's files the dictionaries read, as POSIX paths relative to `dir`, sorted: the files the
 * compression walk lists (never one through a symlinked folder or out of the site), less dot
 * files and folders, `node_modules` and `.dict/` folders.
 */
export async function scannedFiles(dir: string): Promise<string[]> {
  const { files } = await walkDirectory(await realpath(resolve(dir)))
  return files.filter(isScanned).sort()
}

/**
 * Writes the dictionary under its name unless the file there holds its bytes already, links it
 * from every page in `pages` that takes the link (`relink`), then removes the earlier ones from
 * the root (the new one is in place before any page names it, and an earlier one goes once no
 * page names it). `texts`: the pages as the caller read them, in order (read here when absent).
 * Returns how many pages got the link.
 */
export async function publishDictionary(
  dir: string,
  dictionary: SiteDictionary,
  pages: readonly string[],
  texts?: readonly string[],
): Promise<number> {
  const target = join(dir, dictionary.name)
  const onDisk = await readFile(target).catch(() => undefined)
  if (!onDisk?.equals(dictionary.bytes)) await writeFileAtomically(target, dictionary.bytes)
  let linked = 0
  for (const [i, page] of pages.entries()) {
    if (await linkPage(dir, page, dictionary, texts?.[i])) linked++
  }
  for (const entry of await readdir(dir)) {
    if (entry !== dictionary.name && dictionary.isEarlier(entry)) await rm(join(dir, entry), { force: true })
  }
  return linked
}

/** Writes our link into one page, in its own mode; false when the page is unchanged or a symlink. */
async function linkPage(dir: string, page: string, dictionary: SiteDictionary, text?: string): Promise<boolean> {
  const path = join(dir, page)
  const info = await lstat(path)
  if (!info.isFile()) return false
  const html = text ?? (await readFile(path, 'utf8'))
  const withLink = relink(html, dictionary.kind, hrefFrom(page, dictionary.name))
  if (withLink === html) return false
  // `rename` replaces the page (never writes through a link swapped in since); the temp file
  // takes the page's mode bits exactly, setuid/setgid/sticky included.
  await writeFileAtomically(path, withLink, undefined, info.mode & 0o7777)
  return true
}
