import { realpath } from 'node:fs/promises'
import { formatOfVariantPath } from '../codecs/table.js'
import { originalOfDeltaPath } from '../deltas/delta-paths.js'
import { JOURNAL_FILENAME, journaledFiles } from '../fs/journal.js'
import { SITE_LOCK_FILENAME } from '../fs/site-lock.js'
import { type SkippedEntry, walkDirectory } from '../fs/walk.js'
import { MANIFEST_FILENAME, type Manifest } from '../manifest/manifest.js'
import type { FilePattern } from '../options/compress-options.js'
import { fileRuleOf } from './eligibility.js'

export interface ScanOptions {
  /**
   * Globs or RegExps (tested against the path relative to the directory, as Rollup's
   * `createFilter`) of the files to compress; files they match are compressed whatever their
   * type. Empty: every file of a compressible type.
   * @default []
   */
  include?: readonly FilePattern[]
  /**
   * Globs or RegExps of files never to compress; they stay in the manifest.
   * @default []
   */
  exclude?: readonly FilePattern[]
  /**
   * The manifest of the previous run: the sidecars it recorded are preencode's (to reuse,
   * rewrite or remove), even when their original is gone (deleted, or `keepOriginals: false`).
   * @default undefined
   */
  previous?: Manifest
  /**
   * Absolute directories never listed, e.g. the cache when it lives inside the site.
   * @default []
   */
  skipDirs?: string[]
}

export interface ScanResult {
  /** Files that are content, sorted by POSIX path relative to the directory. */
  originals: string[]
  /**
   * Sidecars the previous manifest records as written by preencode: the only `.gz/.br/.zst`
   * files a run may rewrite or remove. A sidecar-named file no manifest records is the user's
   * and stays among `originals`.
   */
  variants: string[]
  /** Temporary files of an interrupted run (`.name.tmp-<pid>-<hex>`), to delete. */
  tempFiles: string[]
  /** Originals matched by `include`. */
  included: ReadonlySet<string>
  /** Originals matched by `exclude`, or not matched by a non-empty `include`. */
  excluded: ReadonlySet<string>
  /** Symlinks and special files not listed (a symlink out of the root, say): the caller warns. */
  skipped: SkippedEntry[]
  /** Every name on disk that preencode did not write (originals and skipped entries). */
  foreign: ReadonlySet<string>
  /**
   * Variants and deltas of a killed run that no manifest records but its journal does (and they
   * still hold the journaled bytes): preencode's, so among `variants` too.
   */
  journaled: string[]
}

/** The temp-name shape `write.ts` uses: `.app.js.br.tmp-1234-9f8e7d6c`. */
export const TEMP_FILE_PATTERN = /(^|\/)\.[^/]+\.tmp-\d+-[0-9a-f]+$/

/**
 * Lists a directory and sorts it into originals, variants and leftovers. Ownership decides
 * "variant", never the name alone: a `.gz/.br/.zst` file is preencode's only when the previous
 * manifest recorded it as a variant, or a killed run's journal (`journal.ts`) names it and it
 * still holds the journaled bytes. A user's `data.csv.gz` beside `data.csv`, or a real
 * `download.tar.gz`, is an original and is never removed or overwritten. `dir` must be a real
 * path (symlinks resolved): the walk never follows a symlink out of it.
 */
export async function scanDirectory(dir: string, options: ScanOptions = {}): Promise<ScanResult> {
  const skipDirs = await Promise.all((options.skipDirs ?? []).map((d) => realpath(d).catch(() => d)))
  const walked = await walkDirectory(dir, skipDirs)
  // The one rule of which files are compressed (eligibility.ts); the threshold is the run's business.
  const rule = fileRuleOf({ include: options.include ?? [], exclude: options.exclude ?? [], threshold: 0 })
  const included = new Set(walked.files.filter((path) => rule.included(path)))
  const excluded = new Set(walked.files.filter((path) => rule.excluded(path)))

  const tempFiles: string[] = []
  const recorded = new Set<string>()
  for (const file of options.previous?.files ?? []) {
    for (const variant of file.variants) recorded.add(variant.path)
    for (const delta of file.deltas ?? []) recorded.add(delta.path)
  }
  const derived = (path: string): boolean =>
    formatOfVariantPath(path) !== undefined || originalOfDeltaPath(path) !== undefined
  const journaled = (await journaledFiles(dir, new Set(walked.files))).filter(
    (path) => !recorded.has(path) && derived(path),
  )
  for (const path of journaled) recorded.add(path)
  const originals: string[] = []
  const variants: string[] = []
  // The manifest's own temp files are listed on purpose: TEMP_FILE_PATTERN sends them to clean-up.
  for (const path of walked.files) {
    if (path === MANIFEST_FILENAME || path === JOURNAL_FILENAME || path === SITE_LOCK_FILENAME) continue
    if (TEMP_FILE_PATTERN.test(path)) tempFiles.push(path)
    // Deltas (`app.js.dict/<hash>.js.dcb`, RFC 9842) are derived files like sidecars.
    else if (recorded.has(path) && derived(path)) variants.push(path)
    else originals.push(path)
  }
  originals.sort()
  variants.sort()
  tempFiles.sort()
  const foreign = new Set([...originals, ...walked.skipped.map((s) => s.path)])
  return { originals, variants, tempFiles, included, excluded, skipped: walked.skipped, foreign, journaled }
}
