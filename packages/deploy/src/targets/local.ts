// The local-directory target: a folder another process serves (nginx root, a mounted volume).
// Each file is copied to a temporary name in its final directory, given the original's mtime,
// then renamed over the old one, so a reader sees the old bytes or the new, never a mix. A
// deploy that writes holds the folder's lock (folder-lock.ts) and first removes the temporary
// files a killed deploy left (only names of ours: `.preencode-tmp-` and 12 hex digits).
import {
  copyFile,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { isPreencodeError, MANIFEST_FILENAME, type Manifest, type OptionLabel, userError } from '@preencode/core'
import { folderVersionSource, runPool, sha256File, withOpenFiles } from '@preencode/core/internal'
import type { PlannedPhase, PlannedUpload, RemoteObject, RemoteState, SiteObject } from '../plan/plan.js'
import { API_LABEL } from '../plan/setting-rules.js'
import { DEPLOY_STATE_FILENAME, type DeployState, parseDeployState } from '../plan/state.js'
import type { DeployTarget, PhaseResult, TargetContext } from '../plan/target.js'
import { acquireFolderLock, type FolderLock, TEMP_MARK, TEMP_NAME, tempName } from './folder-lock.js'
import { assertSeparateFolders } from './separate-folders.js'

/**
 * Deploys into `dir` (created if missing) on this machine. `label` names the destination setting
 * in messages as the user set it (`createTarget` passes its own); by default `` `to` ``.
 */
export function localTarget(dir: string, label: OptionLabel = API_LABEL): DeployTarget {
  const root = resolve(dir)
  const t: LocalFolder = { root, label, description: `local folder ${root}`, operations: 0 }
  return {
    kind: 'local',
    description: t.description,
    // The folder is the deployed site: its deploy state names each deploy's keys.
    previousVersions: async () => folderVersionSource(root),
    begin: (context) => begin(t, context),
    readRemote: (objects, context) => readRemote(t, objects, context),
    uploadPhase: (phase, context) => uploadPhase(t, phase, context),
    writeManifest: (manifest) => writeManifest(t, manifest),
    writeState: (state) => writeState(t, state),
    deleteKeys: (keys) => deleteKeys(t, keys),
    requestCount: () => t.operations,
    close: async () => {
      await t.lock?.release()
    },
  }
}

/** One local target's state, which its functions below share. */
interface LocalFolder {
  readonly root: string
  readonly label: OptionLabel
  readonly description: string
  /** File operations so far (`requestCount`). */
  operations: number
  lock?: FolderLock
  rootReady?: Promise<void>
}

async function fail<T>(t: LocalFolder, action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (cause) {
    if (isPreencodeError(cause)) throw cause
    throw userError('deploy', `${t.description}: ${action} failed: ${(cause as Error).message}`, {
      cause,
      code: 'TARGET_FAILED',
    })
  }
}

/**
 * The target folder may be missing (it is created) but its parent must exist: created
 * non-recursively, a typo fails at once, and a path under /proc, where Node's recursive mkdir
 * never returns, cannot hang the deploy.
 */
function ensureRoot(t: LocalFolder): Promise<void> {
  t.rootReady ??= mkdir(t.root).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error
  })
  return t.rootReady
}

async function begin(t: LocalFolder, context: TargetContext): Promise<void> {
  await assertSeparateFolders(context.root, t.root, t.description)
  await assertParentFolder(t.root, t.label)
  await fail(t, 'creating the folder', () => ensureRoot(t))
  t.lock = await fail(t, 'locking', () =>
    acquireFolderLock(t.root, context.deployId, t.description, (message) => context.emit({ type: 'note', message })),
  )
}

async function readRemote(
  t: LocalFolder,
  objects: readonly SiteObject[],
  context: TargetContext,
): Promise<RemoteState> {
  const root = t.root
  await assertSeparateFolders(context.root, root, t.description)
  await assertParentFolder(root, t.label)
  const leftovers: string[] = []
  const files = await fail(t, 'listing', () => listFiles(root, leftovers))
  await removeLeftovers(t, leftovers, context)
  const remote = new Map<string, RemoteObject>()
  for (const [key, { size, mtimeMs }] of files) remote.set(key, { size, mtimeMs })
  // Hash only where it can matter: same key, same size.
  const candidates = objects.filter((o) => files.get(o.key)?.size === o.size)
  await runPool(candidates, context.concurrency, async (object) => {
    t.operations++
    const sha256 = await sha256File(join(root, object.key))
    remote.set(object.key, { size: object.size, sha256, mtimeMs: files.get(object.key)?.mtimeMs })
  })
  let state: DeployState | undefined
  if (files.has(DEPLOY_STATE_FILENAME)) {
    const path = join(root, DEPLOY_STATE_FILENAME)
    state = parseDeployState(await readFile(path, 'utf8'), path)
  }
  return { objects: remote, state }
}

/** A killed deploy's temporary files: removed under the lock (a dry run changes nothing). */
async function removeLeftovers(t: LocalFolder, leftovers: readonly string[], context: TargetContext): Promise<void> {
  if (!t.lock || leftovers.length === 0) return
  for (const path of leftovers) await fail(t, `removing ${path}`, () => rm(path, { force: true }))
  t.operations += leftovers.length
  context.emit({
    type: 'note',
    message: `${t.description}: removed ${leftovers.length} temporary file${leftovers.length === 1 ? '' : 's'} left by an interrupted deploy.`,
  })
}

async function uploadPhase(t: LocalFolder, phase: PlannedPhase, context: TargetContext): Promise<PhaseResult> {
  let bytes = 0
  await runPool(phase.uploads, context.concurrency, async (object) => {
    await fail(t, `copying ${object.key}`, () => copy(t, object, context))
    t.operations++
    bytes += object.size
    context.emit({ type: 'upload', key: object.key, bytes: object.size, phase: phase.phase })
  })
  return { uploaded: phase.uploads.length, bytes }
}

/** One file to a temporary name in its folder, given the original's mtime, renamed over the old. */
async function copy(t: LocalFolder, object: PlannedUpload, context: TargetContext): Promise<void> {
  const to = join(t.root, object.key)
  await ensureRoot(t)
  await mkdir(dirname(to), { recursive: true })
  const temp = tempName(dirname(to))
  try {
    await withOpenFiles(2, () => copyFile(join(context.root, object.key), temp))
    const time = new Date(object.mtimeMs)
    await utimes(temp, time, time)
    await rename(temp, to)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

async function writeManifest(t: LocalFolder, manifest: Manifest): Promise<void> {
  await writeRootFile(t, MANIFEST_FILENAME, `${JSON.stringify(manifest, null, 2)}\n`)
}

async function writeState(t: LocalFolder, state: DeployState): Promise<void> {
  await writeRootFile(t, DEPLOY_STATE_FILENAME, `${JSON.stringify(state)}\n`)
}

/** One of our files at the root, atomically (a temporary name, then renamed). */
async function writeRootFile(t: LocalFolder, name: string, text: string): Promise<void> {
  const temp = tempName(t.root)
  await fail(t, `writing ${name}`, async () => {
    await ensureRoot(t)
    await writeFile(temp, text)
    await rename(temp, join(t.root, name))
  })
  t.operations++
}

async function deleteKeys(t: LocalFolder, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    await fail(t, `deleting ${key}`, () => unlink(join(t.root, key)).catch(ignoreMissing))
    t.operations++
    await removeEmptyParents(t.root, dirname(join(t.root, key)))
  }
}

async function assertParentFolder(root: string, label: OptionLabel): Promise<void> {
  const parent = dirname(root)
  const info = await stat(parent).catch(() => undefined)
  if (info?.isDirectory()) return
  throw userError(
    'deploy',
    `Cannot deploy to ${root}: the folder ${parent} ${info ? 'is not a folder' : 'does not exist'}. Create it first, or check ${label('to')}.`,
    { code: 'TARGET_FAILED' },
  )
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error
}

/**
 * Every regular file under `root` (POSIX relative path -> size and mtime); a missing root is
 * empty. Our temporary files are not listed; their absolute paths go to `leftovers` when given.
 */
async function listFiles(root: string, leftovers?: string[]): Promise<Map<string, { size: number; mtimeMs: number }>> {
  const files = new Map<string, { size: number; mtimeMs: number }>()
  let entries
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return files
    throw error
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    if (entry.name.startsWith(TEMP_MARK)) {
      if (TEMP_NAME.test(entry.name)) leftovers?.push(path)
      continue
    }
    const { size, mtimeMs } = await stat(path)
    files.set(relative(root, path).split(sep).join('/'), { size, mtimeMs })
  }
  return files
}

async function removeEmptyParents(root: string, dir: string): Promise<void> {
  for (let current = dir; current.startsWith(root + sep); current = dirname(current)) {
    try {
      await rmdir(current)
    } catch {
      return
    }
  }
}
