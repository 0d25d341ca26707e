// The rsync target: over ssh (`user@host:path`), to a daemon (`rsync://host[:port]/module/path`)
// or to a local path. Each phase is one rsync run over that phase's files; deletions are a last
// run. In release mode the site goes into `releases/<id>` (unchanged files hard-linked from the
// live release) and becomes live by an atomic `current` symlink swap. Into a local path, a
// deploy holds the folder's lock (folder-lock.ts), as the local target does.
import { mkdir, rename, rm, symlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { isPreencodeError, MANIFEST_FILENAME, type Manifest, userError } from '@preencode/core'
import { isSafeRelativePath, type PreviousVersionSource } from '@preencode/core/internal'
import type { PlannedPhase, RemoteObject, RemoteState } from '../../plan/plan.js'
import { API_LABEL, checkDeploySettings } from '../../plan/setting-rules.js'
import { DEPLOY_STATE_FILENAME, type StoredObject } from '../../plan/state.js'
import type { DeployTarget, PhaseResult, TargetContext } from '../../plan/target.js'
import { acquireFolderLock, type FolderLock, makeFolders } from '../folder-lock.js'
import { assertSeparateFolders } from '../separate-folders.js'
import {
  deleteArgs,
  parseRsyncDestination,
  type RsyncDestination,
  releasesToPrune,
  rsyncUrl,
  shellQuote,
  swapScript,
  transferArgs,
  transferredFiles,
} from './command.js'
import { DEFAULT_KEEP_RELEASES, type RsyncTargetOptions } from './options.js'
import { rsyncPreviousVersions } from './previous.js'
import { liveRelease } from './releases.js'
import { RsyncRemote } from './remote.js'
import { stageRetimed } from './retimed.js'

export type { RsyncTargetOptions } from './options.js'

/** An rsync target; `dest` is `user@host:path`, `rsync://host[:port]/module/path` or a local path. */
export function rsyncTarget(dest: string, options: RsyncTargetOptions = {}): DeployTarget {
  const destination = parseRsyncDestination(dest)
  const release = options.release ?? false
  if (release && destination.kind === 'daemon') {
    throw userError(
      'deploy',
      `Release mode needs a local path or ssh destination; ${dest} is an rsync daemon, which cannot switch the current symlink.`,
    )
  }
  const keepReleases = options.keepReleases ?? DEFAULT_KEEP_RELEASES
  checkDeploySettings({ keepReleases }, API_LABEL)
  const ssh = destination.kind === 'ssh' ? (options.ssh ?? 'ssh') : undefined
  const description = `rsync ${dest}${release ? ' (release mode)' : ''}`
  const remote = new RsyncRemote(dest, destination, description, options.rsyncPath ?? 'rsync', ssh)
  const t: RsyncState = {
    remote,
    destination,
    description,
    options,
    release,
    keepReleases,
    releases: [],
    learnt: {},
    held: new Map(),
  }
  return {
    kind: 'rsync',
    description,
    previousVersions: () => previousVersions(t),
    begin: (context) => begin(t, context),
    readRemote: (_objects, context) => readRemote(t, context),
    uploadPhase: (phase, context) => uploadPhase(t, phase, context),
    writeManifest: (manifest) => writeManifest(t, manifest),
    commit: (_deployId, context) => commit(t, context),
    storedObjects: () => ({ ...t.learnt }),
    writeState: (state) => remote.sendFile(rsyncUrl(destination), DEPLOY_STATE_FILENAME, `${JSON.stringify(state)}\n`),
    deleteKeys: (keys) => deleteKeys(t, keys),
    requestCount: () => remote.runs,
    close: async () => {
      await t.lock?.release()
      await remote.removeWorkDir()
    },
  }
}

/** One rsync target's state, which its functions below share. */
interface RsyncState {
  readonly remote: RsyncRemote
  readonly destination: RsyncDestination
  readonly description: string
  readonly options: RsyncTargetOptions
  readonly release: boolean
  readonly keepReleases: number
  /** This deploy's release, in release mode (set by the first upload). */
  releaseId?: string
  /** The release `current` points at, in release mode. */
  live?: string
  releases: string[]
  learnt: Record<string, StoredObject>
  /** What `readRemote` found (the state's mtimes of files left as they are). */
  held: ReadonlyMap<string, RemoteObject>
  lock?: FolderLock
}

function previousVersions(t: RsyncState): Promise<PreviousVersionSource> {
  const remote = t.remote
  return rsyncPreviousVersions({
    description: t.description,
    release: t.release,
    list: (sub, recursive) => remote.list(sub, recursive),
    readState: () => remote.readState(),
    fetch: (path) => remote.fetchFile(path),
  })
}

async function begin(t: RsyncState, context: TargetContext): Promise<void> {
  // Over ssh or to a daemon there is no lock: run one deploy per target (docs/deploy/rsync.md).
  const destination = t.destination
  if (destination.kind !== 'local') return
  await assertSeparateFolders(context.root, destination.path, t.description)
  try {
    await makeFolders(destination.path)
    t.lock = await acquireFolderLock(destination.path, context.deployId, t.description, (message) =>
      context.emit({ type: 'note', message }),
    )
  } catch (cause) {
    if (isPreencodeError(cause)) throw cause
    throw userError('deploy', `${t.description}: locking ${destination.path} failed: ${(cause as Error).message}`, {
      cause,
      code: 'TARGET_FAILED',
    })
  }
}

async function readRemote(t: RsyncState, context: TargetContext): Promise<RemoteState> {
  if (t.destination.kind === 'local') await assertSeparateFolders(context.root, t.destination.path, t.description)
  return t.release ? readReleases(t) : readTree(t)
}

/** Release mode: the releases there, the live one, and what the last deploy recorded of it. */
async function readReleases(t: RsyncState): Promise<RemoteState> {
  const remote = new Map<string, RemoteObject>()
  const top = (await t.remote.list('', false)) ?? []
  const current = top.find((e) => e.path === 'current' && e.type === 'link')
  t.releases = ((await t.remote.list('releases', false)) ?? [])
    .filter((e) => e.type === 'dir' && e.path !== '.')
    .map((e) => e.path)
  if (current) t.live = await liveRelease(t.destination, t.releases)
  const state = top.some((e) => e.path === DEPLOY_STATE_FILENAME) ? await t.remote.readState() : undefined
  // The live release holds what the last deploy recorded; a new release links those files.
  if (t.live && state && !t.options.checksum) {
    for (const [key, stored] of Object.entries(state.objects))
      remote.set(key, { size: stored.size, sha256: stored.sha256, mtimeMs: stored.mtimeMs })
  }
  t.held = remote
  return { objects: remote, state }
}

/** In place: every file there, with the state's sha256 where the size still matches. */
async function readTree(t: RsyncState): Promise<RemoteState> {
  const remote = new Map<string, RemoteObject>()
  const entries = (await t.remote.list('', true)) ?? []
  for (const entry of entries) {
    if (entry.type === 'file' && !entry.path.includes('.~tmp~/')) remote.set(entry.path, { size: entry.size })
  }
  const state = remote.has(DEPLOY_STATE_FILENAME) ? await t.remote.readState() : undefined
  // rsync's quick check (size + mtime) misses an edit that keeps the size within the same
  // second; the state's sha256 of what the last deploy wrote is the reliable comparison.
  if (state && !t.options.checksum) {
    for (const [key, item] of remote) {
      const stored = state.objects[key]
      if (!stored) continue
      // The mtime preencode gave the file, whatever its size now: retime.ts keeps mtimes growing.
      const sha256 = stored.size === item.size ? stored.sha256 : undefined
      remote.set(key, { size: item.size, sha256, mtimeMs: stored.mtimeMs })
    }
  }
  t.held = remote
  return { objects: remote, state }
}

async function uploadPhase(t: RsyncState, phase: PlannedPhase, context: TargetContext): Promise<PhaseResult> {
  if (t.release) t.releaseId ??= context.deployId
  // Known to differ (or missing): transferred whatever size and mtime say. Unknown (and, in
  // release mode, unchanged ones to hard-link from the live release): rsync decides.
  const forced = phase.uploads.filter((u) => u.reason !== 'unknown').map((u) => u.key)
  // Retimed files (issue 36.2) go from a copy with the planned mtime; in release mode so do the
  // unchanged ones an earlier deploy retimed, with the mtime the live release holds: see retimed.ts.
  const stage = join(await t.remote.workDir(), 'retimed')
  const retimed = await stageRetimed(phase.uploads, context.root, stage)
  const kept = t.release
    ? phase.unchanged.map((u) => ({ key: u.key, mtimeMs: t.held.get(u.key)?.mtimeMs ?? u.mtimeMs }))
    : []
  const keptTimes = await stageRetimed(kept, context.root, stage)
  const checked = [
    ...phase.uploads.filter((u) => u.reason === 'unknown').map((u) => u.key),
    ...kept.map((u) => u.key).filter((key) => !keptTimes.has(key)),
  ]
  const sent = new Set<string>()
  const runs: [readonly string[], boolean, string][] = [
    [checked, false, context.root],
    [[...keptTimes], false, stage],
    [forced.filter((key) => !retimed.has(key)), true, context.root],
    [[...retimed], true, stage],
  ]
  for (const [keys, ignoreTimes, source] of runs) {
    if (keys.length === 0) continue
    for (const file of await transfer(t, phase, keys, ignoreTimes, source)) sent.add(file)
  }
  // Sent or found identical by rsync's quick check: the file there has the mtime planned.
  for (const object of phase.uploads)
    t.learnt[object.key] = { sha256: object.sha256, size: object.size, mtimeMs: object.mtimeMs }
  for (const { key, sha256, size } of phase.unchanged)
    t.learnt[key] = { sha256, size, mtimeMs: t.held.get(key)?.mtimeMs }
  let bytes = 0
  for (const upload of phase.uploads) {
    if (!sent.has(upload.key)) continue
    bytes += upload.size
    context.emit({ type: 'upload', key: upload.key, bytes: upload.size, phase: phase.phase })
  }
  return { uploaded: sent.size, bytes }
}

/** One rsync run over `keys` of a phase, from `source`; the files it actually transferred. */
async function transfer(
  t: RsyncState,
  phase: PlannedPhase,
  keys: readonly string[],
  ignoreTimes: boolean,
  source: string,
): Promise<string[]> {
  const to = t.release ? rsyncUrl(t.destination, `releases/${t.releaseId}`) : rsyncUrl(t.destination)
  const filesFrom = await t.remote.fileList(`phase-${phase.phase}-${ignoreTimes ? 'forced' : 'checked'}`, keys)
  const args = transferArgs(source, to, {
    filesFrom,
    ssh: t.remote.ssh,
    checksum: t.options.checksum,
    ignoreTimes,
    mkpath: true,
    linkDest: t.release && t.live ? `../${t.live}` : undefined,
    extra: t.options.extraArgs,
  })
  const action = `uploading the ${phase.phase} phase (${keys.length} files)`
  const result = await t.remote.run(t.remote.rsync, args, action)
  return transferredFiles(result.stdout)
}

async function commit(t: RsyncState, context: TargetContext): Promise<void> {
  const releaseId = t.releaseId
  if (!t.release || !releaseId) return
  await switchCurrent(t, releaseId)
  context.emit({ type: 'commit', release: releaseId })
  await pruneReleases(t, releasesToPrune([...t.releases, releaseId], t.keepReleases, releaseId))
}

/** Points `current` at the new release in one atomic rename. */
async function switchCurrent(t: RsyncState, releaseId: string): Promise<void> {
  const destination = t.destination
  if (destination.kind === 'local') {
    const tmp = join(destination.path, 'current.tmp')
    await rm(tmp, { force: true })
    await symlink(`releases/${releaseId}`, tmp)
    await rename(tmp, join(destination.path, 'current'))
    t.remote.runs++
  } else if (destination.kind === 'ssh') {
    await t.remote.runScript(swapScript(destination.path, releaseId), 'switching the current symlink')
  }
}

async function pruneReleases(t: RsyncState, prune: readonly string[]): Promise<void> {
  const destination = t.destination
  if (prune.length === 0) return
  if (destination.kind === 'local') {
    for (const id of prune) await rm(join(destination.path, 'releases', id), { recursive: true, force: true })
  } else if (destination.kind === 'ssh') {
    const paths = prune.map((id) => `releases/${id}`)
    await t.remote.runScript(
      `cd ${shellQuote(destination.path)} && rm -rf -- ${paths.map(shellQuote).join(' ')}`,
      'pruning old releases',
    )
  }
}

/** In release mode into the new release (live with it), else at the destination's root. */
async function writeManifest(t: RsyncState, manifest: Manifest): Promise<void> {
  if (t.release && !t.releaseId) return
  const to = rsyncUrl(t.destination, t.release ? `releases/${t.releaseId}` : '')
  await t.remote.sendFile(to, MANIFEST_FILENAME, `${JSON.stringify(manifest, null, 2)}\n`)
}

async function deleteKeys(t: RsyncState, keys: readonly string[]): Promise<void> {
  if (t.release) return
  const filesFrom = await t.remote.fileList('delete', keys)
  // The source holds each key's folders and no file: every key is a missing argument, and no
  // implied folder is (a stale delta's `.dict/` folder may be gone from the site: rsync exit 24).
  const source = join(await t.remote.workDir(), 'delete-source')
  for (const key of keys) if (isSafeRelativePath(key)) await mkdir(join(source, dirname(key)), { recursive: true })
  const args = deleteArgs(source, rsyncUrl(t.destination), filesFrom, t.remote.ssh)
  await t.remote.run(t.remote.rsync, args, `deleting ${keys.length} stale files`)
}
