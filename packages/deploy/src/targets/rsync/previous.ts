// The versions visitors may still hold, read from an rsync target: its listing and deploy state
// now, each file's bytes only when a delta needs them (one rsync run per file, into a temp dir).
// In release mode every deploy is a `releases/<deploy id>` folder, so older versions are read
// from the release that served them.
import { deployedVersionSource, type PreviousVersionSource } from '@preencode/core/internal'
import { DEPLOY_STATE_FILENAME, type DeployState } from '../../plan/state.js'
import type { ListedEntry } from './command.js'

/** What the rsync target lends: listing a remote folder, reading its state, fetching one file. */
export interface RsyncRemoteReader {
  description: string
  release: boolean
  /** Entries under `sub` (relative to the destination); undefined when it does not exist. */
  list(sub: string, recursive: boolean): Promise<ListedEntry[] | undefined>
  readState(): Promise<DeployState | undefined>
  /** One remote file (relative to the destination); undefined when it is not there. */
  fetch(path: string): Promise<Buffer | undefined>
}

/** A deploy id as written by `newDeployId`; anything else never becomes part of a path. */
const RELEASE_ID = /^[\w.-]+$/

export async function rsyncPreviousVersions(remote: RsyncRemoteReader): Promise<PreviousVersionSource> {
  const { description } = remote
  if (!remote.release) {
    const entries = (await remote.list('', true)) ?? []
    const keys = new Set(entries.filter((e) => e.type === 'file' && !e.path.includes('.~tmp~/')).map((e) => e.path))
    const state = keys.has(DEPLOY_STATE_FILENAME) ? await remote.readState() : undefined
    return deployedVersionSource({ description, keys, deploys: state?.deploys, read: (key) => remote.fetch(key) })
  }
  const top = (await remote.list('', false)) ?? []
  const state = top.some((e) => e.path === DEPLOY_STATE_FILENAME) ? await remote.readState() : undefined
  if (state && state.deploys.length > 0) {
    // Each generation from its own release; a pruned release reads as gone.
    return deployedVersionSource({
      description,
      keys: undefined,
      deploys: state.deploys,
      read: async (key, generation) => {
        const id = state.deploys[generation]?.id
        return id && RELEASE_ID.test(id) ? remote.fetch(`releases/${id}/${key}`) : undefined
      },
    })
  }
  if (!top.some((e) => e.path === 'current'))
    return deployedVersionSource({ description, keys: new Set(), deploys: undefined, read: async () => undefined })
  const entries = (await remote.list('current', true)) ?? []
  const keys = new Set(entries.filter((e) => e.type === 'file').map((e) => e.path))
  return deployedVersionSource({ description, keys, deploys: undefined, read: (key) => remote.fetch(`current/${key}`) })
}
