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
import { folderVersionSource, isPreencodeError, sha256File, userError, withOpenFiles } from '@preencode/core/internal'
import type { PlannedPhase, RemoteObject, RemoteState, SiteObject } from '../plan/plan.js'
import { runPool } from '@preencode/core/internal'
import { acquireFolderLock, tempName, TEMP_MARK, TEMP_NAME, type FolderLock } from './folder-lock.js'
import { assertSeparateFolders } from './separate-folders.js'
import { DEPLOY_STATE_FILENAME, parseDeployState, type DeployState } from '../plan/state.js'
import type { DeployTarget, PhaseResult, TargetContext } from '../plan/target.js'

/** Deploys into `dir` (created if missing) on this machine. */
export function localTarget(dir: string): DeployTarget {
  const root = resolve(dir)
  const description = `local folder ${root}`
  let operations = 0
  let lock: FolderLock | undefined

  async function fail<T>(action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (cause) {
      if (isPreencodeError(cause)) throw cause
      throw userError('deploy', `${description}: ${action} failed: ${(cause as Error).message}`, {
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
  let rootReady: Promise<void> | undefined
  const ensureRoot = (): Promise<void> => {
    rootReady ??= mkdir(root).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    })
    return rootReady
  }

  return {
    kind: 'local',
    description,

    // The folder is the deployed site: its deploy state names each deploy's keys.
    previousVersions: async () => folderVersionSource(root),

    async begin(context: TargetContext): Promise<void> {
      await assertSeparateFolders(context.root, root, description)
      await assertParentFolder(root)
      await fail('creating the folder', ensureRoot)
      lock = await fail('locking', () =>
        acquireFolderLock(root, context.deployId, description, (message) => context.emit({ type: 'note', message })),
      )
    },

    async readRemote(objects: readonly SiteObject[], context: TargetContext): Promise<RemoteState> {
      await assertSeparateFolders(context.root, root, description)
      await assertParentFolder(root)
      const leftovers: string[] = []
      const files = await fail('listing', () => listFiles(root, leftovers))
      // A killed deploy's temporary files: removed under the lock (a dry run changes nothing).
      if (lock && leftovers.length > 0) {
        for (const path of leftovers) await fail(`removing ${path}`, () => rm(path, { force: true }))
        operations += leftovers.length
        context.emit({
          type: 'note',
          message: `${description}: removed ${leftovers.length} temporary file${leftovers.length === 1 ? '' : 's'} left by an interrupted deploy.`,
        })
      }
      const remote = new Map<string, RemoteObject>()
      for (const [key, size] of files) remote.set(key, { size })
      // Hash only where it can matter: same key, same size.
      const candidates = objects.filter((o) => files.get(o.key) === o.size)
      await runPool(candidates, context.concurrency, async (object) => {
        operations++
        remote.set(object.key, { size: object.size, sha256: await sha256File(join(root, object.key)) })
      })
      let state: DeployState | undefined
      if (files.has(DEPLOY_STATE_FILENAME)) {
        const path = join(root, DEPLOY_STATE_FILENAME)
        state = parseDeployState(await readFile(path, 'utf8'), path)
      }
      return { objects: remote, state }
    },

    async uploadPhase(phase: PlannedPhase, context: TargetContext): Promise<PhaseResult> {
      let bytes = 0
      await runPool(phase.uploads, context.concurrency, async (object) => {
        const to = join(root, object.key)
        await fail(`copying ${object.key}`, async () => {
          await ensureRoot()
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
        })
        operations++
        bytes += object.size
        context.emit({ type: 'upload', key: object.key, bytes: object.size, phase: phase.phase })
      })
      return { uploaded: phase.uploads.length, bytes }
    },

    async writeState(state: DeployState): Promise<void> {
      const path = join(root, DEPLOY_STATE_FILENAME)
      const temp = tempName(root)
      await fail(`writing ${DEPLOY_STATE_FILENAME}`, async () => {
        await ensureRoot()
        await writeFile(temp, `${JSON.stringify(state)}\n`)
        await rename(temp, path)
      })
      operations++
    },

    async deleteKeys(keys: readonly string[]): Promise<void> {
      for (const key of keys) {
        await fail(`deleting ${key}`, () => unlink(join(root, key)).catch(ignoreMissing))
        operations++
        await removeEmptyParents(root, dirname(join(root, key)))
      }
    },

    requestCount: () => operations,

    async close(): Promise<void> {
      await lock?.release()
    },
  }
}

async function assertParentFolder(root: string): Promise<void> {
  const parent = dirname(root)
  const info = await stat(parent).catch(() => undefined)
  if (info?.isDirectory()) return
  throw userError(
    'deploy',
    `Cannot deploy to ${root}: the folder ${parent} ${info ? 'is not a folder' : 'does not exist'}. Create it first, or check --to.`,
    { code: 'TARGET_FAILED' },
  )
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error
}

/**
 * Every regular file under `root` (POSIX relative path -> size); a missing root is empty. Our
 * temporary files are not listed; their absolute paths go to `leftovers` when given.
 */
export async function listFiles(root: string, leftovers?: string[]): Promise<Map<string, number>> {
  const files = new Map<string, number>()
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
    files.set(relative(root, path).split(sep).join('/'), (await stat(path)).size)
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
