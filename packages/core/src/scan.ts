import { realpath } from 'node:fs/promises'
import { relative, sep } from 'node:path'
import { glob } from 'tinyglobby'
import { originalOfDeltaPath } from './delta-paths.js'
import { formatOfVariantPath } from './formats.js'
import { MANIFEST_FILENAME, type Manifest } from './manifest.js'
import { walkDirectory, type SkippedEntry } from './walk.js'

export interface ScanOptions {
  /**
   * Globs (relative to the directory) of files to compress even if their type is not listed.
   * @default []
   */
  include?: string[]
  /**
   * Globs (relative to the directory) of files never to compress; they stay in the manifest.
   * @default []
   */
  exclude?: string[]
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
  /** Originals matched by `exclude`. */
  excluded: ReadonlySet<string>
  /** Symlinks and special files not listed (a symlink out of the root, say): the caller warns. */
  skipped: SkippedEntry[]
  /** Every name on disk that preencode did not write (originals and skipped entries). */
  foreign: ReadonlySet<string>
}

/** The temp-name shape `write.ts` uses: `.app.js.br.tmp-1234-9f8e7d6c`. */
export const TEMP_FILE_PATTERN = /(^|\/)\.[^/]+\.tmp-\d+-[0-9a-f]+$/

/**
 * Lists a directory and sorts it into originals, variants and leftovers. Ownership decides
 * "variant", never the name alone: a `.gz/.br/.zst` file is preencode's only when the previous
 * manifest recorded it as a variant. A user's `data.csv.gz` beside `data.csv`, or a real
 * `download.tar.gz`, is an original and is never removed or overwritten. `dir` must be a real
 * path (symlinks resolved): the walk never follows a symlink out of it.
 */
export async function scanDirectory(dir: string, options: ScanOptions = {}): Promise<ScanResult> {
  const skipDirs = await Promise.all((options.skipDirs ?? []).map((d) => realpath(d).catch(() => d)))
  const walked = await walkDirectory(dir, skipDirs)
  const listed = new Set(walked.files)
  const ignore = [MANIFEST_FILENAME]
  for (const skip of skipDirs) {
    const rel = relative(dir, skip)
    if (rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep)) ignore.push(`${rel.split(sep).join('/')}/**`)
  }
  const included = new Set(await matchGlobs(dir, options.include ?? [], ignore, listed))
  const excluded = new Set(await matchGlobs(dir, options.exclude ?? [], ignore, listed))

  const tempFiles: string[] = []
  const recorded = new Set<string>()
  for (const file of options.previous?.files ?? []) {
    for (const variant of file.variants) recorded.add(variant.path)
    for (const delta of file.deltas ?? []) recorded.add(delta.path)
  }
  const originals: string[] = []
  const variants: string[] = []
  // The manifest's own temp files are listed on purpose: TEMP_FILE_PATTERN sends them to clean-up.
  for (const path of walked.files) {
    if (path === MANIFEST_FILENAME) continue
    if (TEMP_FILE_PATTERN.test(path)) tempFiles.push(path)
    // Deltas (`app.js.dict/<hash>.js.dcb`, RFC 9842) are derived files like sidecars.
    else if (recorded.has(path) && (formatOfVariantPath(path) !== undefined || originalOfDeltaPath(path) !== undefined)) variants.push(path)
    else originals.push(path)
  }
  originals.sort()
  variants.sort()
  tempFiles.sort()
  const foreign = new Set([...originals, ...walked.skipped.map((s) => s.path)])
  return { originals, variants, tempFiles, included, excluded, skipped: walked.skipped, foreign }
}

/** Glob matches among the walked files only (the glob itself would list symlinks the walk refused). */
async function matchGlobs(dir: string, patterns: string[], ignore: string[], listed: ReadonlySet<string>): Promise<string[]> {
  if (patterns.length === 0) return []
  const matches = await glob(patterns, { cwd: dir, dot: true, onlyFiles: true, ignore, expandDirectories: false, followSymbolicLinks: false })
  return matches.filter((path) => listed.has(path))
}
