// The rsync target: over ssh (`user@host:path`), to a daemon (`rsync://host[:port]/module/path`)
// or to a local path. Each phase is one rsync run over that phase's files; deletions are a last
// run. In release mode the site goes into `releases/<id>` (unchanged files hard-linked from the
// live release) and becomes live by an atomic `current` symlink swap. Into a local path, a
// deploy holds the folder's lock (folder-lock.ts), as the local target does.
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { isPreencodeError, userError } from '@preencode/core'
import { isSafeRelativePath } from '@preencode/core/internal'
import type { PlannedPhase, RemoteObject, RemoteState, SiteObject } from '../../plan/plan.js'
import {
  deleteArgs,
  parseListing,
  parseRsyncDestination,
  releasesToPrune,
  rsyncUrl,
  shellQuote,
  sshScriptArgs,
  swapScript,
  transferArgs,
  transferredFiles,
} from './command.js'
import { DEPLOY_STATE_FILENAME, parseDeployState, type DeployState, type StoredObject } from '../../plan/state.js'
import type { DeployTarget, PhaseResult, TargetContext } from '../../plan/target.js'
import { checkDeployLimits } from '../../plan/limits.js'
import { acquireFolderLock, makeFolders, type FolderLock } from '../folder-lock.js'
import { assertSeparateFolders } from '../separate-folders.js'
import { liveRelease } from './releases.js'
import { rsyncPreviousVersions } from './previous.js'
import { spawnCollected, type RunResult } from './process.js'
import { DEFAULT_KEEP_RELEASES, type RsyncTargetOptions } from './options.js'

export { DEFAULT_KEEP_RELEASES, type RsyncTargetOptions } from './options.js'

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
  checkDeployLimits({ keepReleases }, (option) => option)
  const rsync = options.rsyncPath ?? 'rsync'
  const ssh = destination.kind === 'ssh' ? (options.ssh ?? 'ssh') : undefined
  const description = `rsync ${dest}${release ? ' (release mode)' : ''}`
  let runs = 0
  let work: string | undefined
  let releaseId: string | undefined
  let live: string | undefined
  let releases: string[] = []
  const learnt: Record<string, StoredObject> = {}
  let lock: FolderLock | undefined

  async function run(command: string, args: string[], action: string, okCodes: number[] = [0]): Promise<RunResult> {
    runs++
    const result = await spawnCollected(command, args).catch((cause: unknown) => {
      throw userError(
        'deploy',
        `${description}: ${action} failed: cannot run ${command} (${(cause as Error).message}).`,
        { cause, code: 'TARGET_FAILED' },
      )
    })
    if (!okCodes.includes(result.code)) {
      const detail = result.stderr.trim().split('\n').slice(-3).join(' | ')
      throw userError('deploy', `${description}: ${action} failed (${command} exit ${result.code}): ${detail}`, {
        code: 'TARGET_FAILED',
      })
    }
    return result
  }

  async function workDir(): Promise<string> {
    work ??= await mkdtemp(join(tmpdir(), 'preencode-rsync-'))
    return work
  }

  async function fileList(name: string, keys: readonly string[]): Promise<string> {
    const path = join(await workDir(), name)
    await writeFile(path, keys.map((k) => `${k}\0`).join(''))
    return path
  }

  async function list(sub: string, recursive: boolean): Promise<ReturnType<typeof parseListing> | undefined> {
    const args = ['--list-only', ...(recursive ? ['-r'] : []), ...(ssh ? ['-e', ssh] : []), rsyncUrl(destination, sub)]
    // 23: partial transfer, here "no such file or directory": an empty destination.
    const result = await run(rsync, args, `listing ${rsyncUrl(destination, sub)}`, [0, 23])
    if (result.code === 23) {
      if (/No such file or directory|change_dir.*failed/i.test(result.stderr)) return undefined
      throw userError('deploy', `${description}: listing failed: ${result.stderr.trim()}`, { code: 'TARGET_FAILED' })
    }
    return parseListing(result.stdout)
  }

  async function readState(): Promise<DeployState | undefined> {
    const dir = await workDir()
    const args = [
      ...(ssh ? ['-e', ssh] : []),
      rsyncUrl(destination).replace(/\/$/, `/${DEPLOY_STATE_FILENAME}`),
      `${dir}/`,
    ]
    await run(rsync, args, `reading ${DEPLOY_STATE_FILENAME}`)
    return parseDeployState(
      await readFile(join(dir, DEPLOY_STATE_FILENAME), 'utf8'),
      `${dest}/${DEPLOY_STATE_FILENAME}`,
    )
  }

  /** One remote file into the work folder; undefined when the target does not have it. */
  let fetched = 0
  async function fetchFile(path: string): Promise<Buffer | undefined> {
    const local = join(await workDir(), 'previous', String(fetched++))
    await mkdir(dirname(join(local, 'file')), { recursive: true })
    const source = rsyncUrl(destination, path).replace(/\/$/, '')
    const result = await run(
      rsync,
      [...(ssh ? ['-e', ssh] : []), source, join(local, 'file')],
      `reading ${path}`,
      [0, 23],
    )
    if (result.code === 23) {
      if (/No such file or directory/i.test(result.stderr)) return undefined
      throw userError('deploy', `${description}: reading ${path} failed: ${result.stderr.trim()}`, {
        code: 'TARGET_FAILED',
      })
    }
    return readFile(join(local, 'file'))
  }

  async function runScript(script: string, action: string): Promise<void> {
    if (destination.kind !== 'ssh') return
    const { command, args } = sshScriptArgs(ssh ?? 'ssh', destination.host, script)
    await run(command, args, action)
  }

  return {
    kind: 'rsync',
    description,

    previousVersions: () => rsyncPreviousVersions({ description, release, list, readState, fetch: fetchFile }),

    async begin(context: TargetContext): Promise<void> {
      // Over ssh or to a daemon there is no lock: run one deploy per target (docs/deploy/rsync.md).
      if (destination.kind !== 'local') return
      await assertSeparateFolders(context.root, destination.path, description)
      try {
        await makeFolders(destination.path)
        lock = await acquireFolderLock(destination.path, context.deployId, description, (message) =>
          context.emit({ type: 'note', message }),
        )
      } catch (cause) {
        if (isPreencodeError(cause)) throw cause
        throw userError('deploy', `${description}: locking ${destination.path} failed: ${(cause as Error).message}`, {
          cause,
          code: 'TARGET_FAILED',
        })
      }
    },

    async readRemote(_objects: readonly SiteObject[], context: TargetContext): Promise<RemoteState> {
      if (destination.kind === 'local') await assertSeparateFolders(context.root, destination.path, description)
      const remote = new Map<string, RemoteObject>()
      if (release) {
        const top = (await list('', false)) ?? []
        const current = top.find((e) => e.path === 'current' && e.type === 'link')
        releases = ((await list('releases', false)) ?? [])
          .filter((e) => e.type === 'dir' && e.path !== '.')
          .map((e) => e.path)
        if (current) live = await liveRelease(destination, releases)
        const state = top.some((e) => e.path === DEPLOY_STATE_FILENAME) ? await readState() : undefined
        // The live release holds what the last deploy recorded; a new release links those files.
        if (live && state && !options.checksum) {
          for (const [key, stored] of Object.entries(state.objects))
            remote.set(key, { size: stored.size, sha256: stored.sha256 })
        }
        return { objects: remote, state }
      }
      const entries = (await list('', true)) ?? []
      for (const entry of entries) {
        if (entry.type === 'file' && !entry.path.includes('.~tmp~/')) remote.set(entry.path, { size: entry.size })
      }
      const state = remote.has(DEPLOY_STATE_FILENAME) ? await readState() : undefined
      // rsync's quick check (size + mtime) misses an edit that keeps the size within the same
      // second; the state's sha256 of what the last deploy wrote is the reliable comparison.
      if (state && !options.checksum) {
        for (const [key, item] of remote) {
          const stored = state.objects[key]
          if (stored && stored.size === item.size) remote.set(key, { size: item.size, sha256: stored.sha256 })
        }
      }
      return { objects: remote, state }
    },

    async uploadPhase(phase: PlannedPhase, context: TargetContext): Promise<PhaseResult> {
      if (release) releaseId ??= context.deployId
      const to = release ? rsyncUrl(destination, `releases/${releaseId}`) : rsyncUrl(destination)
      // Known to differ (or missing): transferred whatever size and mtime say. Unknown (and, in
      // release mode, unchanged ones to hard-link from the live release): rsync decides.
      const forced = phase.uploads.filter((u) => u.reason !== 'unknown').map((u) => u.key)
      const checked = [...phase.uploads.filter((u) => u.reason === 'unknown'), ...(release ? phase.unchanged : [])].map(
        (u) => u.key,
      )
      const sent = new Set<string>()
      for (const [keys, ignoreTimes] of [
        [checked, false],
        [forced, true],
      ] as const) {
        if (keys.length === 0) continue
        const filesFrom = await fileList(`phase-${phase.phase}-${ignoreTimes ? 'forced' : 'checked'}`, keys)
        const args = transferArgs(context.root, to, {
          filesFrom,
          ssh,
          checksum: options.checksum,
          ignoreTimes,
          mkpath: true,
          linkDest: release && live ? `../${live}` : undefined,
          extra: options.extraArgs,
        })
        const result = await run(rsync, args, `uploading the ${phase.phase} phase (${keys.length} files)`)
        for (const file of transferredFiles(result.stdout)) sent.add(file)
      }
      for (const object of [...phase.uploads, ...phase.unchanged])
        learnt[object.key] = { sha256: object.sha256, size: object.size }
      let bytes = 0
      for (const upload of phase.uploads) {
        if (!sent.has(upload.key)) continue
        bytes += upload.size
        context.emit({ type: 'upload', key: upload.key, bytes: upload.size, phase: phase.phase })
      }
      return { uploaded: sent.size, bytes }
    },

    async commit(_deployId: string, context: TargetContext): Promise<void> {
      if (!release || !releaseId) return
      if (destination.kind === 'local') {
        const tmp = join(destination.path, 'current.tmp')
        await rm(tmp, { force: true })
        await symlink(`releases/${releaseId}`, tmp)
        await rename(tmp, join(destination.path, 'current'))
        runs++
      } else if (destination.kind === 'ssh') {
        await runScript(swapScript(destination.path, releaseId), 'switching the current symlink')
      }
      context.emit({ type: 'commit', release: releaseId })
      const prune = releasesToPrune([...releases, releaseId], keepReleases, releaseId)
      if (prune.length === 0) return
      if (destination.kind === 'local') {
        for (const id of prune) await rm(join(destination.path, 'releases', id), { recursive: true, force: true })
      } else if (destination.kind === 'ssh') {
        const paths = prune.map((id) => `releases/${id}`)
        await runScript(
          `cd ${shellQuote(destination.path)} && rm -rf -- ${paths.map(shellQuote).join(' ')}`,
          'pruning old releases',
        )
      }
    },

    storedObjects: () => ({ ...learnt }),

    async writeState(state: DeployState): Promise<void> {
      const dir = await workDir()
      await writeFile(join(dir, DEPLOY_STATE_FILENAME), `${JSON.stringify(state)}\n`)
      const filesFrom = await fileList('state', [DEPLOY_STATE_FILENAME])
      await run(
        rsync,
        transferArgs(dir, rsyncUrl(destination), { filesFrom, ssh, mkpath: true }),
        `writing ${DEPLOY_STATE_FILENAME}`,
      )
    },

    async deleteKeys(keys: readonly string[]): Promise<void> {
      if (release) return
      const filesFrom = await fileList('delete', keys)
      // The source holds each key's folders and no file: every key is a missing argument, and no
      // implied folder is (a stale delta's `.dict/` folder may be gone from the site: rsync exit 24).
      const source = join(await workDir(), 'delete-source')
      for (const key of keys) if (isSafeRelativePath(key)) await mkdir(join(source, dirname(key)), { recursive: true })
      await run(rsync, deleteArgs(source, rsyncUrl(destination), filesFrom, ssh), `deleting ${keys.length} stale files`)
    },

    requestCount: () => runs,

    async close(): Promise<void> {
      await lock?.release()
      if (work) await rm(work, { recursive: true, force: true })
    },
  }
}
