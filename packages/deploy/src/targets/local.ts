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
import {
  folderVersionSource,
  type PreviousVersionSource,
  runPool,
  sha256File,
  withOpenFiles,
} from '@preencode/core/internal'
import type { PlannedPhase, PlannedUpload, RemoteObject, RemoteState, SiteObject } from '../plan/plan.js'
import { API_LABEL } from '../plan/setting-rules.js'
import { DEPLOY_STATE_FILENAME, type DeployState, parseDeployState } from '../plan/state.js'
import type { DeployTarget, PhaseResult, TargetContext } from '../plan/target.js'
import { acquireFolderLock, type FolderLock, TEMP_MARK, TEMP_NAME, tempName } from './folder-lock.js'
import { plainTarget } from './plain-target.js'
import { assertSeparateFolders } from './separate-folders.js'

/**
 * Deploys into `dir` (created if missing) on this machine. `label` names the destination setting
 * in messages as the user set it (`createTarget` passes its own); by default `` `to` ``.
 */
export function localTarget(dir: string, label: OptionLabel = API_LABEL): DeployTarget {
  return plainTarget(new LocalTarget(resolve(dir), label))
}

class LocalTarget implements DeployTarget {
  readonly kind = 'local'
  readonly description: string
  private operations = 0
  private lock: FolderLock | undefined
  private rootReady: Promise<void> | undefined

  constructor(
    private readonly root: string,
    private readonly label: OptionLabel,
  ) {
    this.description = `local folder ${root}`
  }

  private async fail<T>(action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (cause) {
      if (isPreencodeError(cause)) throw cause
      throw userError('deploy', `${this.description}: ${action} failed: ${(cause as Error).message}`, {
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
  private ensureRoot(): Promise<void> {
    this.rootReady ??= mkdir(this.root).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    })
    return this.rootReady
  }

  // The folder is the deployed site: its deploy state names each deploy's keys.
  async previousVersions(): Promise<PreviousVersionSource> {
    return folderVersionSource(this.root)
  }

  async begin(context: TargetContext): Promise<void> {
    await assertSeparateFolders(context.root, this.root, this.description)
    await assertParentFolder(this.root, this.label)
    await this.fail('creating the folder', () => this.ensureRoot())
    this.lock = await this.fail('locking', () =>
      acquireFolderLock(this.root, context.deployId, this.description, (message) =>
        context.emit({ type: 'note', message }),
      ),
    )
  }

  async readRemote(objects: readonly SiteObject[], context: TargetContext): Promise<RemoteState> {
    const root = this.root
    await assertSeparateFolders(context.root, root, this.description)
    await assertParentFolder(root, this.label)
    const leftovers: string[] = []
    const files = await this.fail('listing', () => listFiles(root, leftovers))
    await this.removeLeftovers(leftovers, context)
    const remote = new Map<string, RemoteObject>()
    for (const [key, { size, mtimeMs }] of files) remote.set(key, { size, mtimeMs })
    // Hash only where it can matter: same key, same size.
    const candidates = objects.filter((o) => files.get(o.key)?.size === o.size)
    await runPool(candidates, context.concurrency, async (object) => {
      this.operations++
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
  private async removeLeftovers(leftovers: readonly string[], context: TargetContext): Promise<void> {
    if (!this.lock || leftovers.length === 0) return
    for (const path of leftovers) await this.fail(`removing ${path}`, () => rm(path, { force: true }))
    this.operations += leftovers.length
    context.emit({
      type: 'note',
      message: `${this.description}: removed ${leftovers.length} temporary file${leftovers.length === 1 ? '' : 's'} left by an interrupted deploy.`,
    })
  }

  async uploadPhase(phase: PlannedPhase, context: TargetContext): Promise<PhaseResult> {
    let bytes = 0
    await runPool(phase.uploads, context.concurrency, async (object) => {
      await this.fail(`copying ${object.key}`, () => this.copy(object, context))
      this.operations++
      bytes += object.size
      context.emit({ type: 'upload', key: object.key, bytes: object.size, phase: phase.phase })
    })
    return { uploaded: phase.uploads.length, bytes }
  }

  /** One file to a temporary name in its folder, given the original's mtime, renamed over the old. */
  private async copy(object: PlannedUpload, context: TargetContext): Promise<void> {
    const to = join(this.root, object.key)
    await this.ensureRoot()
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

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.writeRootFile(MANIFEST_FILENAME, `${JSON.stringify(manifest, null, 2)}\n`)
  }

  async writeState(state: DeployState): Promise<void> {
    await this.writeRootFile(DEPLOY_STATE_FILENAME, `${JSON.stringify(state)}\n`)
  }

  /** One of our files at the root, atomically (a temporary name, then renamed). */
  private async writeRootFile(name: string, text: string): Promise<void> {
    const temp = tempName(this.root)
    await this.fail(`writing ${name}`, async () => {
      await this.ensureRoot()
      await writeFile(temp, text)
      await rename(temp, join(this.root, name))
    })
    this.operations++
  }

  async deleteKeys(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      await this.fail(`deleting ${key}`, () => unlink(join(this.root, key)).catch(ignoreMissing))
      this.operations++
      await removeEmptyParents(this.root, dirname(join(this.root, key)))
    }
  }

  requestCount(): number {
    return this.operations
  }

  async close(): Promise<void> {
    await this.lock?.release()
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
