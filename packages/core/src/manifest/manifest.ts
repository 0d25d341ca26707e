import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { DictionaryEncoding } from '../codecs/dictionary.js'
import type { LevelOption } from '../codecs/encode.js'
import type { Encoding, Format } from '../codecs/table.js'
import { userError } from '../errors.js'
import type { CacheClass } from '../http/cache-policy.js'
import type { ResolvedDeltaOptions } from '../options/delta-options.js'

/**
 * The manifest lives in the output root under this name. It is what deploy, the server
 * configs and verify read; it is never uploaded, and every generated config refuses to serve it.
 */
export const MANIFEST_FILENAME = '.preencode-manifest.json'
export const MANIFEST_VERSION = 1

/** One precompressed sidecar of a file (`app.js.br`). */
export interface ManifestVariant {
  format: Format
  /** Content-Encoding token: `gzip`, `br` or `zstd`. */
  encoding: Encoding
  /** POSIX path relative to the root, e.g. `assets/app-3f2a.js.br`. */
  path: string
  size: number
  /** sha256 of the variant's bytes, lowercase hex. */
  sha256: string
}

/** One file of the site in the manifest: its hash, size, type, cache class, variants and deltas. */
export interface ManifestFile {
  /** POSIX path relative to the root, e.g. `assets/app-3f2a.js`; no leading slash. */
  path: string
  size: number
  /** sha256 of the original bytes, lowercase hex. Deploy's change detection and verify use it. */
  sha256: string
  /**
   * The original's mtime in ms; variants carry the same mtime on disk (a variant exactly as large
   * as one listed before it: plus one second per such variant, so ETags of mtime + size differ).
   */
  mtimeMs: number
  /** Full Content-Type header value, charset included for text, e.g. `text/javascript; charset=utf-8`. */
  contentType: string
  cacheClass: CacheClass
  /** The Cache-Control value resolved from the class and the user's cache policy. */
  cacheControl: string
  /**
   * False when `keepOriginals: false` removed the original from disk; servers then decode the
   * gzip variant for clients that accept no encoding.
   */
  originalOnDisk: boolean
  /**
   * Variants actually written (each strictly smaller than the original), smallest first; ties in
   * the servers' order of preference (br, zstd, gzip). The servers send the first acceptable one
   * in that fixed order, not necessarily the smallest (`variantsToWrite`).
   */
  variants: ManifestVariant[]
  /**
   * RFC 9842: the `match` of this file's `Use-As-Dictionary` header (a relative URLPattern such
   * as `index-*.js`): browsers keep it as a dictionary for its next versions. Absent when off.
   */
  useAsDictionary?: string
  /** `match-dest` of that header (the page dictionary: `['document']`). Absent: any destination. */
  matchDest?: string[]
  /** Dictionary-compressed deltas of this file (`.dcb`/`.dcz`), smallest first. Absent when none. */
  deltas?: ManifestDelta[]
}

/** A delta: this file compressed against a dictionary the browser may hold (RFC 9842). */
export interface ManifestDelta {
  encoding: DictionaryEncoding
  /** Base64 of the dictionary's SHA-256: the `Available-Dictionary` value without its colons. */
  dictionary: string
  /** Where the dictionary came from (a previous version's path, or the shared page dictionary). */
  dictionaryPath: string
  /** POSIX path relative to the root (see `deltaPath`). */
  path: string
  size: number
  /** sha256 of the delta's bytes, lowercase hex. */
  sha256: string
}

/** `.preencode-manifest.json`: every file of the site, its variants and deltas, and the settings of the run that wrote it. */
export interface Manifest {
  version: typeof MANIFEST_VERSION
  /** `preencode@<version>` of the writer. */
  generator: string
  /** Formats that were requested; a file may have fewer variants (too small, no saving). */
  formats: Format[]
  /** Every file under the root except the manifest and the variants themselves, sorted by path. */
  files: ManifestFile[]
  /**
   * The settings of the run, so that a command finding the manifest out of date with the disk
   * recompresses alike. Absent in manifests written before they were recorded.
   */
  settings?: ManifestSettings
}

/** Reads `<root>/.preencode-manifest.json`, with an error that says how to make one. */
export async function readManifest(root: string): Promise<Manifest> {
  const path = join(root, MANIFEST_FILENAME)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (cause) {
    throw userError(
      'core',
      `No manifest at ${path}. Run \`preencode compress ${root}\` (or build with the plugin) first.`,
      {
        cause,
        code: 'BAD_INPUT',
      },
    )
  }
  let manifest: Manifest
  try {
    manifest = JSON.parse(text) as Manifest
  } catch (cause) {
    throw userError('core', `${path} is not valid JSON; rebuild to regenerate it.`, { cause, code: 'BAD_INPUT' })
  }
  if (manifest.version !== MANIFEST_VERSION || !Array.isArray(manifest.files)) {
    throw userError(
      'core',
      `${path} has manifest version ${String(manifest.version)}; this preencode reads version ${MANIFEST_VERSION}. Rebuild to regenerate it.`,
      { code: 'BAD_INPUT' },
    )
  }
  return manifest
}

/**
 * The settings of the run that wrote a manifest. Commands that find the manifest out of date
 * with the disk (deploy, config, verify) recompress with these, so the result is what the
 * build itself would have written.
 */
export interface ManifestSettings {
  /** As users write them: a number, or `'max'`. */
  levels: Record<Format, LevelOption>
  threshold: number
  minSaving: number
  /** Globs as written; a RegExp as `{ regexp: source, flags }` (JSON has no RegExp). */
  include: RecordedPattern[]
  exclude: RecordedPattern[]
  keepOriginals: boolean
  /** The cache directory (absolute), or false when the run had the cache off. */
  cache: string | false
  cacheMaxBytes: number
  /**
   * The shared cache of the run (docs/shared-cache.md), absent without one: `url` as written,
   * `endpoint` without user info. A recompression and a deploy's deltas use it too; credentials
   * are never recorded (they come from the AWS chain where the command runs).
   */
  sharedCache?: { url: string; endpoint?: string }
  cacheControl: Record<CacheClass, string>
  /**
   * How content-hashed names were recognised: `default`, a RegExp written `/source/flags`, or
   * `function` (a function cannot be recorded: files the manifest knows keep their class, new
   * ones get the default rule).
   */
  immutable: string
  /**
   * The delta updates (RFC 9842) of the run, recorded by `writeDeltas`: a recompression that
   * finds the manifest out of date (a page edited after the build) writes them again, so a
   * post-build edit never turns `Use-As-Dictionary` and the deltas off. Absent: none were made.
   */
  deltas?: RecordedDeltas
}

/** The delta options of a run, as `writeDeltas` used them (`remember` is not recorded). */
export type RecordedDeltas = Omit<ResolvedDeltaOptions, 'remember' | 'previous'> & {
  /** The folder of the deployed site the deltas were made against, absolute; absent: the cache's history. */
  previous?: string
}

/** A file pattern in JSON: a glob as is, a RegExp by its source and flags. */
export type RecordedPattern = string | { regexp: string; flags: string }
