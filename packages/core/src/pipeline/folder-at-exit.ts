/**
 * The invariant a build process keeps whatever tool writes last (issue 34 item 1): when the
 * process ends, no variant preencode wrote is left beside a file whose bytes changed since it was
 * encoded, and no compressible file is left without the variants the rule gives it. A process's
 * `exit` event allows no promise, so this look is synchronous: each folder's manifest against the
 * disk by reconcile's own rule (`statVerdict`, the sha256 where size and mtime cannot tell), and
 * a walk for files the rule would compress that the manifest does not list. A folder out of date
 * is completed by `reconcileManifest` in a child process (`spawnSync`: with the cache, unchanged
 * files cost a read); where that fails, the stale variants are removed here, so none is served,
 * and the caller names the command that completes the folder.
 */
import { spawnSync } from 'node:child_process'
import {
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MESSAGE_PREFIX } from '../errors.js'
import { JOURNAL_FILENAME } from '../fs/journal.js'
import { SITE_LOCK_FILENAME } from '../fs/site-lock.js'
import { sha256Hex } from '../hash.js'
import { MANIFEST_FILENAME, MANIFEST_VERSION, type Manifest } from '../manifest/manifest.js'
import { optionsFromManifest } from '../manifest/settings.js'
import { DEFAULT_COMPRESS_OPTIONS } from '../options/compress-options.js'
import { isInsideDirectory } from '../paths.js'
import { type FileRule, fileRuleOf, skipReason } from '../run/eligibility.js'
import { TEMP_FILE_PATTERN } from '../run/scan.js'
import { statVerdict } from './reconcile.js'

/** How a compressed folder differs from its manifest, as far as serving it goes. */
export interface FolderDrift {
  /** The folder (real path). */
  root: string
  /** Originals changed or gone since they were encoded, or whose variants are damaged. */
  stale: string[]
  /**
   * The part of `stale` whose original is gone (React Router's SPA build deletes the
   * `.vite/manifest.json` it wrote): its variants go with it, and nothing is left to serve stale,
   * so it is cleaned up without being named to the user.
   */
  removed: string[]
  /** Files the manifest does not list that preencode would compress. */
  added: string[]
}

/** What the look at exit found in one folder and did. */
export interface FolderAtExit {
  root: string
  /** The files that were out of date (stale, then added). */
  found: string[]
  /** The folder was compressed again: every variant now encodes its file, none is missing. */
  completed: boolean
  /** Why it could not be completed (the variants of stale files were removed instead). */
  failure?: string
}

/** The script that runs `reconcileManifest` on the folders named on its command line. */
const RECONCILE_SCRIPT = fileURLToPath(new URL('./reconcile-child.js', import.meta.url))

/** How `dir` differs from its manifest; undefined when it has none (or is gone). Synchronous. */
export function folderDriftSync(dir: string): FolderDrift | undefined {
  let root: string
  let manifest: Manifest
  try {
    root = realpathSync(dir)
    manifest = JSON.parse(readFileSync(join(root, MANIFEST_FILENAME), 'utf8')) as Manifest
  } catch {
    return undefined
  }
  if (manifest.version !== MANIFEST_VERSION || !Array.isArray(manifest.files)) return undefined
  const stale: string[] = []
  const removed: string[] = []
  for (const file of manifest.files) {
    const variantSizes = file.variants.map((variant) => sizeOf(join(root, variant.path)))
    const path = join(root, file.path)
    const original = file.originalOnDisk ? statOf(path) : undefined
    let verdict = statVerdict(file, variantSizes, original)
    if (verdict === 'hash') verdict = hashOf(path) === file.sha256 ? undefined : 'changed'
    if (verdict) stale.push(file.path)
    if (verdict === 'changed' && file.originalOnDisk && !original) removed.push(file.path)
  }
  return { root, stale, removed, added: addedFiles(root, manifest) }
}

/**
 * Completes every folder of `dirs` that is out of date (see the module comment); returns what was
 * found in each folder that was. Synchronous: made for `process.on('exit')`.
 */
export function completeFoldersSync(dirs: readonly string[]): FolderAtExit[] {
  const drifted = dirs
    .map((dir) => folderDriftSync(dir))
    .filter((drift): drift is FolderDrift => drift !== undefined && drift.stale.length + drift.added.length > 0)
  if (drifted.length === 0) return []
  for (const drift of drifted) releaseOwnLock(drift.root)
  const failure = reconcileInChild(drifted.map((drift) => drift.root))
  return drifted.map((drift) => {
    const gone = new Set(drift.removed)
    const found = [...drift.stale.filter((path) => !gone.has(path)), ...drift.added]
    const after = folderDriftSync(drift.root)
    if (!after || after.stale.length + after.added.length === 0) return { root: drift.root, found, completed: true }
    removeStaleSync(after.root, after.stale)
    return { root: drift.root, found, completed: false, failure: failure ?? 'files kept changing' }
  })
}

/**
 * A run of this process cut short by `process.exit()` leaves the site's lock naming this live
 * process, which would refuse the child: the run is over, so its lock goes.
 */
function releaseOwnLock(root: string): void {
  const path = join(root, SITE_LOCK_FILENAME)
  try {
    if ((JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown }).pid === process.pid) rmSync(path, { force: true })
  } catch {
    // No lock, or not ours to remove.
  }
}

/** Runs the reconcile script; undefined when it succeeded, else why not (one line). */
function reconcileInChild(roots: string[]): string | undefined {
  if (!existsSync(RECONCILE_SCRIPT)) return `${RECONCILE_SCRIPT} is missing`
  const child = spawnSync(process.execPath, [RECONCILE_SCRIPT, ...roots], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  })
  if (child.error) return child.error.message
  if (child.status === 0) return undefined
  const lines = (child.stderr ?? '').split('\n').filter((line) => line.trim() !== '')
  return lines.find((line) => line.includes(MESSAGE_PREFIX))?.trim() ?? lines[0]?.trim() ?? `exit code ${child.status}`
}

/**
 * Removes the variants and deltas of `stale` originals (only paths the manifest records: preencode
 * wrote them) and their entries, so the manifest still describes the disk. Best effort.
 */
function removeStaleSync(root: string, stale: readonly string[]): void {
  if (stale.length === 0) return
  try {
    const path = join(root, MANIFEST_FILENAME)
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest
    const gone = new Set(stale)
    for (const file of manifest.files.filter((f) => gone.has(f.path)))
      for (const derived of [...file.variants, ...(file.deltas ?? [])])
        rmSync(join(root, derived.path), { force: true })
    const kept: Manifest = { ...manifest, files: manifest.files.filter((f) => !gone.has(f.path)) }
    const temp = join(root, `.${MANIFEST_FILENAME}.tmp-${process.pid}-exit`)
    writeFileSync(temp, `${JSON.stringify(kept, null, 2)}\n`)
    renameSync(temp, path)
  } catch {
    // A folder that cannot be written keeps what it has; the caller's line names the command.
  }
}

/** Files under `root` the manifest does not list and `rule` would compress. */
function addedFiles(root: string, manifest: Manifest): string[] {
  const rule = ruleOf(manifest)
  const known = new Set<string>([MANIFEST_FILENAME, JOURNAL_FILENAME, SITE_LOCK_FILENAME])
  for (const file of manifest.files) {
    known.add(file.path)
    for (const derived of [...file.variants, ...(file.deltas ?? [])]) known.add(derived.path)
  }
  const cache = manifest.settings?.cache
  const added: string[] = []
  let entries: string[]
  try {
    entries = readdirSync(root, { recursive: true, encoding: 'utf8' })
  } catch {
    return added
  }
  for (const entry of entries) {
    const path = entry.split('\\').join('/')
    if (known.has(path) || TEMP_FILE_PATTERN.test(path)) continue
    const absolute = join(root, entry)
    if (typeof cache === 'string' && isInsideDirectory(absolute, cache)) continue
    const info = statOf(absolute)
    // A symlink is listed only when it leads to a file inside the folder (as the walk lists it).
    if (!info?.isFile() || !isInsideDirectory(realOf(absolute), root)) continue
    if (skipReason(rule, path, info.size) === undefined) added.push(path)
  }
  return added.sort()
}

/** The rule the manifest's run compressed by (its recorded include, exclude, threshold). */
function ruleOf(manifest: Manifest): FileRule {
  const options = optionsFromManifest(manifest)
  return fileRuleOf({
    include: [options.include ?? []].flat(),
    exclude: [options.exclude ?? []].flat(),
    threshold: options.threshold ?? DEFAULT_COMPRESS_OPTIONS.threshold,
  })
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

function sizeOf(path: string): number | undefined {
  return statOf(path)?.size
}

function realOf(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

function hashOf(path: string): string | undefined {
  try {
    return sha256Hex(readFileSync(path))
  } catch {
    return undefined
  }
}
