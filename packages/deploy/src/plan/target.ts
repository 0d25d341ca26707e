// What every deploy target implements. The orchestrator (deploy.ts) owns the order; a target
// only knows how to list, write and delete on its kind of storage.

import type { Manifest } from '@preencode/core'
import type { PreviousVersionSource } from '@preencode/core/internal'
import type { DeployPhase, PlannedPhase, RemoteState, SiteObject } from './plan.js'
import type { DeployState, StoredObject } from './state.js'

/** Progress and diagnostics; the CLI turns them into a TTY progress line. */
export type DeployEvent =
  | { type: 'remote'; objects: number }
  | { type: 'phase'; phase: DeployPhase; uploads: number; bytes: number }
  | { type: 'upload'; key: string; bytes: number; phase: DeployPhase }
  | { type: 'retry'; what: string; attempt: number; delayMs: number; error: string }
  | { type: 'commit'; release: string }
  | { type: 'delete'; keys: string[] }
  /** Something the user should read: the manifest was out of date and the site was compressed again, say. */
  | { type: 'note'; message: string }
  | { type: 'warning'; message: string }

/** What a target is told about the deploy in progress: the site folder, the deploy id, the events. */
export interface TargetContext {
  /** Absolute path of the site directory. */
  root: string
  /** This deploy's id (also the release directory name in release mode). */
  deployId: string
  /** Uploads and requests in flight at most. */
  concurrency: number
  emit: (event: DeployEvent) => void
}

/** What one upload phase wrote: objects and bytes. */
export interface PhaseResult {
  /** Objects actually written (rsync may skip files it finds identical). */
  uploaded: number
  bytes: number
}

/**
 * Where a deploy goes (local folder, rsync, S3): reads what is there, uploads phase by phase,
 * commits, writes its state and deletes. `createTarget()` makes one from a destination.
 */
export interface DeployTarget {
  readonly kind: 'local' | 'rsync' | 's3'
  /** Names the target in messages, e.g. `s3://site/www (endpoint http://127.0.0.1:9000)`; no secrets. */
  readonly description: string
  /**
   * Called once before a deploy that writes (not for a dry run), before anything else touches the
   * target: take the target's lock, clear what a killed deploy of ours left there.
   */
  begin?(context: TargetContext): Promise<void>
  /** Lists what the target holds under its root, with hashes where it can tell, and its deploy state. */
  readRemote(objects: readonly SiteObject[], context: TargetContext): Promise<RemoteState>
  /**
   * The versions visitors may still hold, read from the target itself (listing and deploy state
   * now, bytes only when a delta needs them), so a fresh CI runner can write deltas.
   */
  previousVersions?(context: TargetContext): Promise<PreviousVersionSource>
  /** Writes one phase; resolves only when every object of it is stored. */
  uploadPhase(phase: PlannedPhase, context: TargetContext): Promise<PhaseResult>
  /**
   * After every phase, before `commit`: the manifest of what was deployed (`deployedManifest`) as
   * `.preencode-manifest.json` at the site's root, for `preencode serve` and the Node/Fetch
   * handler (issue 36.3). Folder targets (local, rsync) only: a bucket is served by other means.
   */
  writeManifest?(manifest: Manifest, context: TargetContext): Promise<void>
  /** After every phase: make the new site live where that is a separate step (release symlink). */
  commit?(deployId: string, context: TargetContext): Promise<void>
  /** Hashes and ETags learnt while uploading, for the deploy state. */
  storedObjects?(): Record<string, StoredObject>
  writeState(state: DeployState, context: TargetContext): Promise<void>
  deleteKeys(keys: readonly string[], context: TargetContext): Promise<void>
  /** Requests made so far (HTTP requests for S3, process runs for rsync, file operations for local). */
  requestCount(): number
  /** Releases what `begin` took (the lock); called at the end of every deploy, failed ones too. */
  close?(): Promise<void>
}
