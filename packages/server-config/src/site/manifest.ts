// The site on disk as the Node middleware and the Fetch handler see it: the manifest indexed by
// path, and read again whenever the file on disk is replaced (a rebuild or a redeploy in place),
// without a restart; none at all when the folder has no manifest (then `disk.ts` describes
// every file).
import type { Stats } from 'node:fs'
import { join } from 'node:path'
import {
  type CacheClass,
  isPreencodeError,
  MANIFEST_FILENAME,
  type Manifest,
  type ManifestFile,
  readManifest,
} from '@preencode/core'
import { DEFAULT_CACHE_CONTROL } from '@preencode/core/internal'
import { type ServedFile, servedFileOf } from '../http/served-file.js'
import { pathsOutsideSite } from '../shared/manifest-paths.js'
import { FILE_ACCESS, SHARED_PER_TURN } from './file-access.js'

export interface Entry {
  /** What the serving specification reads. */
  served: ServedFile
  /** The modification time recorded (variants carry their original's): tells whether a file opened is the one described. */
  mtimeMs: number
  /** Described from the disk, not the manifest (`disk.ts`): no sha256 to build an ETag from. */
  onDisk?: true
  /**
   * When the manifest describing it was written (its ctime, ms): a file last changed before is
   * the one it describes when size and mtime agree; one changed since is checked (`file-etag.ts`).
   * Undefined for a manifest given in memory: every file is checked.
   */
  describedBefore?: number | undefined
}

/** What the entries described from the disk (`disk.ts`) need of the manifest, when there is one. */
export interface DiskContext {
  /** True when a manifest exists: then unlisted files are served as identity only. */
  manifest: boolean
  /**
   * The paths of the variants and deltas the manifest lists: representations, not files of their
   * own (issue 29: a user's `my.dict/` folder is known from ours by the manifest, not by name).
   */
  representations: ReadonlySet<string>
  cacheControl: Readonly<Record<CacheClass, string>>
}

/** No manifest: the default cache values. */
const DEFAULT_DISK_CONTEXT: DiskContext = Object.freeze({
  manifest: false,
  representations: new Set<string>(),
  cacheControl: DEFAULT_CACHE_CONTROL,
})

/** The site as the middleware sees it: the manifest's entries (undefined when there is no manifest). */
export interface SiteIndex {
  entries: ReadonlyMap<string, Entry> | undefined
  disk: DiskContext
}

/** Told what the site on disk cannot use as it is, in one line (a library never prints). */
export type WarningHandler = (message: string) => void

/** By default a warning goes to `process.emitWarning` (stderr, once per cause). */
export const EMIT_WARNING: WarningHandler = (message) => process.emitWarning(message, { code: 'PREENCODE' })

/**
 * The manifest indexed by path. A file that names a path out of the site (`pathsOutsideSite`)
 * is left out, with one warning for the manifest: that file is then served as if the manifest
 * did not list it (its original from disk, identity), and its bad paths are never opened.
 */
export function indexSite(
  manifest: Manifest,
  warn: WarningHandler,
  source = 'the manifest given',
  describedBefore?: number,
): SiteIndex {
  const files: ManifestFile[] = []
  const refused: string[] = []
  for (const file of manifest.files) {
    const outside = pathsOutsideSite(file)
    if (outside.length === 0) files.push(file)
    else refused.push(...outside.map((path) => JSON.stringify(path)))
  }
  if (refused.length > 0)
    warn(
      `preencode: ${source} names ${refused.length} path(s) out of the site (${refused.slice(0, 3).join(', ')}${refused.length > 3 ? ', …' : ''}); the files that name them are served as if it did not list them.`,
    )
  const fromManifest: Partial<Record<CacheClass, string>> = { ...manifest.settings?.cacheControl }
  for (const file of files) fromManifest[file.cacheClass] ??= file.cacheControl
  const representations = new Set<string>()
  for (const file of files)
    for (const stored of [...file.variants, ...(file.deltas ?? [])]) representations.add(stored.path)
  const entries = new Map<string, Entry>()
  for (const file of files)
    entries.set(file.path, { served: servedFileOf(file), mtimeMs: file.mtimeMs, describedBefore })
  return {
    entries,
    disk: { manifest: true, representations, cacheControl: { ...DEFAULT_CACHE_CONTROL, ...fromManifest } },
  }
}

/**
 * The manifest as it is on disk now. One `stat` per request (shared by the requests that
 * arrive together: `SHARED_PER_TURN`, `file-access.ts`) tells whether it was replaced; a rebuild writes it atomically, so a read
 * sees the old or the new one, never half of it. One that does not read (cut short, not JSON,
 * another version: written in place by something else) leaves the last good one served, with
 * one warning, until it is replaced; with none read before, the request fails naming it.
 */
export function manifestOnDisk(root: string, warn: WarningHandler): (force?: boolean) => Promise<SiteIndex> {
  const path = join(root, MANIFEST_FILENAME)
  let loaded: { key: string; site: SiteIndex } | undefined
  let lastGood: SiteIndex | undefined
  let checking: Promise<SiteIndex> | undefined
  const read = async (describedBefore: number): Promise<SiteIndex> => {
    try {
      lastGood = indexSite(await readManifest(root), warn, path, describedBefore)
      return lastGood
    } catch (error) {
      if (!lastGood) throw error
      // readManifest's message names the file and what is wrong with it.
      warn(
        `preencode: still serving by the last manifest read: ${isPreencodeError(error) ? error.detail : (error as Error).message}`,
      )
      return lastGood
    }
  }
  const check = async (): Promise<SiteIndex> => {
    let info: Stats | undefined
    try {
      info = await FILE_ACCESS.stat(path)
    } catch {
      info = undefined
    }
    const key = info ? `${info.ino}:${info.size}:${info.mtimeMs}` : 'missing'
    if (loaded?.key === key) return loaded.site
    // No manifest (a folder written by hand, or a deploy before issue 36.3): every file is described from the disk.
    const site = info ? await read(info.ctimeMs) : { entries: undefined, disk: DEFAULT_DISK_CONTEXT }
    loaded = { key, site }
    return site
  }
  /** `checking` is settled and kept for the rest of this turn (`SHARED_PER_TURN`). */
  let kept = false
  const start = (): Promise<SiteIndex> => {
    kept = false
    const started: Promise<SiteIndex> = check().finally(() => {
      if (checking !== started) return
      if (!SHARED_PER_TURN) checking = undefined
      else {
        kept = true
        setImmediate(() => {
          if (checking !== started) return
          checking = undefined
          kept = false
        })
      }
    })
    return started
  }
  return (force = false) => {
    if (force) {
      loaded = undefined
      // Asked to read again: not what this turn learnt before.
      if (kept) checking = undefined
    }
    // A failed read is retried on the next request (the build may not have finished yet).
    checking ??= start()
    return checking
  }
}
