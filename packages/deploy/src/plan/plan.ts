// The pure core of a deploy: from the manifest and what the target already holds, decide what
// to upload, in which order, what to skip and what to delete. No I/O here, so the dry-run plan
// and the executed plan are the same object.
import {
  type DictionaryEncoding,
  type Encoding,
  MANIFEST_FILENAME,
  type Manifest,
  type ManifestFile,
} from '@preencode/core'
import { isLocalOnly } from './dotfiles.js'
import { retimeChangedFiles } from './retime.js'
import { outdatedEncodings, siteFilesOf } from './stale-deltas.js'
import { DEPLOY_STATE_FILENAME, type DeployState, type KeepPolicy, LOCK_FILENAME, protectedKeys } from './state.js'

/** When an object is written: every phase completes before the next one starts. */
export type DeployPhase = 'immutable' | 'asset' | 'entry'

/** Phases in the order they run: hashed assets, then other files, then HTML and entry points. */
const PHASE_ORDER: readonly DeployPhase[] = Object.freeze(['immutable', 'asset', 'entry'])

/** One object the site consists of: an original or one of its variants. */
export interface SiteObject {
  /** POSIX path relative to the site root; also the key relative to the target's prefix. */
  key: string
  /** The original this object belongs to (equal to `key` for the original itself). */
  originalPath: string
  size: number
  sha256: string
  /** The original's Content-Type, also for variants. */
  contentType: string
  /** The Content-Encoding token (`br`, `gzip`, `zstd`, `dcb`, `dcz`) for a variant or delta; undefined for an original. */
  contentEncoding: Encoding | DictionaryEncoding | undefined
  cacheControl: string
  /** The original's mtime (ms); variants are given the same. A changed file may be moved past the target's (`retime.ts`). */
  mtimeMs: number
  phase: DeployPhase
}

/** What a target knows of one object it holds. */
export interface RemoteObject {
  /** sha256 of the stored bytes when the target can tell (S3 metadata, local hashing). */
  sha256?: string | undefined
  size?: number | undefined
  /**
   * The stored file's mtime (ms), from targets that write the plan's mtimes (the local folder):
   * a changed file is then never stored with the size and mtime of an earlier version (`retime.ts`).
   */
  mtimeMs?: number | undefined
}

/** What the target holds: its objects and its deploy history. */
export interface RemoteState {
  /** Objects under the target's root, keyed like {@link SiteObject.key}. */
  objects: ReadonlyMap<string, RemoteObject>
  /** The target's deploy history, if it has one. */
  state?: DeployState | undefined
}

/** Why an object is in the upload list. */
export type UploadReason = 'new' | 'changed' | 'unknown'

/** A site object to upload, and why (`new`, `changed` — another sha256 or size —, or `unknown` without a recorded sha256). */
export interface PlannedUpload extends SiteObject {
  reason: UploadReason
}

/** One upload phase of the plan (variants, then assets, then HTML…), with what it uploads and keeps. */
export interface PlannedPhase {
  phase: DeployPhase
  uploads: PlannedUpload[]
  /** Objects of this phase already stored with the same sha256 (release mode links them). */
  unchanged: SiteObject[]
}

/** What a deploy will do: the upload phases in order, what stays, what is deleted. */
export interface DeployPlan {
  /** Upload phases in execution order; empty phases are kept so reports show them. */
  phases: PlannedPhase[]
  /** Objects already present with the same sha256. */
  skipped: SiteObject[]
  /**
   * Stale keys deleted after every upload succeeded: with `delete`, what the site no longer has
   * (less what `keep` protects); always, whatever `delete` and `keep` say, the variants and deltas
   * the site does not list beside their file (`stale-deltas.ts`: they may encode another version).
   */
  deletions: string[]
  /** Stale keys kept for the grace period (`keep`) or because `delete` is off. */
  kept: string[]
  /** Every key of the site, for the deploy state. */
  keys: string[]
  /**
   * Files of the site left on this machine: dotfiles and files in dot-folders (`.env`,
   * `docs/.secret.json`), without `includeDotfiles`. Their variants and deltas stay too.
   */
  leftOut: string[]
  /** Total bytes of the planned uploads. */
  uploadBytes: number
}

/** `planDeploy()`'s options (and `deploy()`'s, which passes them on). */
export interface PlanOptions {
  /**
   * Delete objects the site no longer has (after every upload succeeded). Variants and deltas
   * the site does not list beside their file are deleted either way (`stale-deltas.ts`).
   * @default false
   */
  delete?: boolean
  /** Grace period for stale objects; see {@link KeepPolicy}. */
  keep?: KeepPolicy
  /**
   * Decides which files are entry points, uploaded last with HTML (which always is).
   * @default HTML, service workers (`sw.js`, `service-worker.js`), web manifests
   */
  isEntry?: (path: string) => boolean
  /** The current time, for the grace period's `maxAgeMs`. @default Date.now() */
  now?: number
  /**
   * Upload dotfiles and the files in dot-folders too (`.env`, `.git/`…). Off, only `/.well-known/`
   * and `.htaccess` files go; the others stay on this machine (see `plan/dotfiles.ts`).
   * @default false
   */
  includeDotfiles?: boolean
}

/** Keys that belong to preencode itself and are never uploaded from the site or deleted as stale. */
const RESERVED_KEYS: ReadonlySet<string> = new Set([MANIFEST_FILENAME, DEPLOY_STATE_FILENAME, LOCK_FILENAME])

const ENTRY_NAMES = /(^|\/)(sw|service-worker)\.js$|\.webmanifest$|(^|\/)manifest\.json$/i

/** The default entry point test: fixed names browsers fetch again on their own. */
export function isDefaultEntry(path: string): boolean {
  return ENTRY_NAMES.test(path)
}

function phaseOf(file: ManifestFile, isEntry: (path: string) => boolean): DeployPhase {
  if (file.cacheClass === 'html' || isEntry(file.path)) return 'entry'
  return file.cacheClass === 'immutable' ? 'immutable' : 'asset'
}

/** The site's files that stay on this machine (see {@link PlanOptions.includeDotfiles}). */
function leftOutFiles(manifest: Manifest, includeDotfiles = false): string[] {
  if (includeDotfiles) return []
  return manifest.files.map((f) => f.path).filter((path) => !RESERVED_KEYS.has(path) && isLocalOnly(path))
}

/**
 * Every object of the site to upload (originals kept on disk and all variants and deltas), sorted
 * by key; without `includeDotfiles`, none of a dotfile's.
 */
export function siteObjects(
  manifest: Manifest,
  isEntry: (path: string) => boolean = isDefaultEntry,
  includeDotfiles = false,
): SiteObject[] {
  const objects: SiteObject[] = []
  for (const file of manifest.files) {
    if (RESERVED_KEYS.has(file.path) || (!includeDotfiles && isLocalOnly(file.path))) continue
    const common = {
      originalPath: file.path,
      contentType: file.contentType,
      cacheControl: file.cacheControl,
      mtimeMs: file.mtimeMs,
      phase: phaseOf(file, isEntry),
    }
    if (file.originalOnDisk) {
      objects.push({ ...common, key: file.path, size: file.size, sha256: file.sha256, contentEncoding: undefined })
    }
    for (const variant of file.variants) {
      objects.push({
        ...common,
        key: variant.path,
        size: variant.size,
        sha256: variant.sha256,
        contentEncoding: variant.encoding,
      })
    }
    // RFC 9842 deltas (`<file>.dict/<hash>.<ext>.dcb`): served only to a client that names their dictionary.
    for (const delta of file.deltas ?? []) {
      objects.push({
        ...common,
        key: delta.path,
        size: delta.size,
        sha256: delta.sha256,
        contentEncoding: delta.encoding,
      })
    }
  }
  return objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}

/**
 * Decides the deploy. Uploads come in three phases (content-hashed assets, other files, then
 * HTML and entry points) so that no visitor gets an HTML page naming an object not yet stored.
 * Within a phase, variants precede their original, so an edge function never rewrites to a
 * variant older than the original it stands for.
 */
export function planDeploy(manifest: Manifest, remote: RemoteState, options: PlanOptions = {}): DeployPlan {
  const objects = siteObjects(manifest, options.isEntry ?? isDefaultEntry, options.includeDotfiles)
  const phases = PHASE_ORDER.map((phase): PlannedPhase => ({ phase, uploads: [], unchanged: [] }))
  const skipped: SiteObject[] = []
  let uploadBytes = 0
  for (const object of objects) {
    const existing = remote.objects.get(object.key)
    let reason: UploadReason | undefined
    if (!existing) reason = 'new'
    // A size that differs is a change whether or not the target told a sha256.
    else if (existing.size !== undefined && existing.size !== object.size) reason = 'changed'
    else if (existing.sha256 === undefined) reason = 'unknown'
    else if (existing.sha256 !== object.sha256) reason = 'changed'
    if (reason === undefined) {
      skipped.push(object)
      phases[PHASE_ORDER.indexOf(object.phase)]!.unchanged.push(object)
      continue
    }
    phases[PHASE_ORDER.indexOf(object.phase)]!.uploads.push({ ...object, reason })
    uploadBytes += object.size
  }
  for (const phase of phases) phase.uploads.sort(variantsFirst)
  retimeChangedFiles(phases, remote.objects)

  const keys = objects.map((o) => o.key)
  const wanted = new Set(keys)
  const stale = [...remote.objects.keys()].filter((key) => !wanted.has(key) && !RESERVED_KEYS.has(key)).sort()
  const keep = options.delete ? protectedKeys(remote.state, options.keep ?? {}, options.now ?? Date.now()) : undefined
  const outdated = outdatedEncodings(stale, siteFilesOf(manifest), remote.state?.deploys[0]?.keys)
  const deletions: string[] = []
  const kept: string[] = []
  for (const key of stale) (outdated.has(key) || (keep && !keep.has(key)) ? deletions : kept).push(key)
  const leftOut = leftOutFiles(manifest, options.includeDotfiles)
  return { phases, skipped, deletions, kept, keys, leftOut, uploadBytes }
}

function variantsFirst(a: PlannedUpload, b: PlannedUpload): number {
  if (a.originalPath !== b.originalPath) return a.originalPath < b.originalPath ? -1 : 1
  if ((a.contentEncoding === undefined) !== (b.contentEncoding === undefined))
    return a.contentEncoding === undefined ? 1 : -1
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0
}

/** Every planned upload in execution order. */
export function plannedUploads(plan: DeployPlan): PlannedUpload[] {
  return plan.phases.flatMap((p) => p.uploads)
}
