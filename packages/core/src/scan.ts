import { relative, sep } from 'node:path'
import { createFilter } from '@rollup/pluginutils'
import { glob } from 'tinyglobby'
import { formatOfVariantPath, stripVariantExtension } from './formats.js'
import { MANIFEST_FILENAME, type Manifest } from './manifest.js'
import { isCompressible } from './media-types.js'
import type { FilePattern } from './options.js'

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
   * The manifest of the previous run: a sidecar it recorded is a variant even when its original
   * is gone (deleted by the user, or by `keepOriginals: false`).
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
  /** Sidecars preencode wrote (or would write): candidates for reuse or stale removal. */
  variants: string[]
  /** Temporary files of an interrupted run (`.name.tmp-<pid>-<hex>`), to delete. */
  tempFiles: string[]
  /** Originals matched by `include`. */
  included: ReadonlySet<string>
  /** Originals matched by `exclude`, or not matched by a non-empty `include`. */
  excluded: ReadonlySet<string>
}

/** The temp-name shape `write.ts` uses: `.app.js.br.tmp-1234-9f8e7d6c`. */
export const TEMP_FILE_PATTERN = /(^|\/)\.[^/]+\.tmp-\d+-[0-9a-f]+$/

/**
 * Lists a directory and sorts it into originals, variants and leftovers. Deciding "variant" by
 * the name alone would eat a real `download.tar.gz`; so a `.gz/.br/.zst` file is a variant only
 * when it is the sidecar of an original that preencode would compress, or when the previous
 * manifest recorded it as one.
 */
export async function scanDirectory(dir: string, options: ScanOptions = {}): Promise<ScanResult> {
  // The manifest's own temp files stay listed: TEMP_FILE_PATTERN sends them to clean-up.
  const ignore = [MANIFEST_FILENAME]
  for (const skip of options.skipDirs ?? []) {
    const rel = relative(dir, skip)
    if (rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep)) ignore.push(`${rel.split(sep).join('/')}/**`)
  }
  const all = await glob(['**/*'], { cwd: dir, dot: true, onlyFiles: true, ignore, expandDirectories: false })
  // Rollup's createFilter, so `include`/`exclude` mean what they mean in every Rollup and Vite
  // plugin: globs and RegExps against the path; `include`, when given, is the whole set.
  const include = options.include ?? []
  const matchesInclude = include.length > 0 ? createFilter(include, null, { resolve: false }) : () => false
  const matchesExclude = (options.exclude ?? []).length > 0 ? createFilter(options.exclude, null, { resolve: false }) : () => false
  const included = new Set(all.filter((path) => matchesInclude(path)))
  const excluded = new Set(all.filter((path) => matchesExclude(path) || (include.length > 0 && !included.has(path))))

  const tempFiles: string[] = []
  const present = new Set<string>()
  for (const path of all) {
    if (TEMP_FILE_PATTERN.test(path)) tempFiles.push(path)
    else present.add(path)
  }

  const recorded = new Set<string>()
  for (const file of options.previous?.files ?? []) {
    for (const variant of file.variants) recorded.add(variant.path)
  }

  const wouldCompress = (path: string): boolean =>
    !excluded.has(path) && (included.has(path) || isCompressible(path))

  const originals: string[] = []
  const variants: string[] = []
  for (const path of present) {
    const isVariant =
      formatOfVariantPath(path) !== undefined &&
      (recorded.has(path) || (present.has(stripVariantExtension(path)) && wouldCompress(stripVariantExtension(path))))
    ;(isVariant ? variants : originals).push(path)
  }
  originals.sort()
  variants.sort()
  tempFiles.sort()
  return { originals, variants, tempFiles, included, excluded }
}
