/**
 * Where the versions visitors may still hold come from: a folder holding the deployed site
 * (a local-folder deploy target, or a copy of what is live), or the build history the cache
 * keeps (`version-store.ts`). Either way a source lists paths with their age in deploys and
 * reads bytes on demand: only versions of files that changed are ever read.
 */
import { readFile, realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { glob } from 'tinyglobby'
import { isSiteDictionary } from '../http/page-dictionary-name.js'
import { versionedAsset } from '../http/use-as-dictionary.js'
import { MANIFEST_FILENAME } from '../manifest/manifest.js'
import { isInsideDirectory, isSafeRelativePath } from '../paths.js'

export interface PreviousVersion {
  /** POSIX path relative to the site root, as served. */
  path: string
  /** 0: the live deploy (or last build); 1: the one before; and so on. */
  generation: number
  /** sha256 of the bytes (hex) when the source knows it without reading them. */
  sha256?: string
  /** The bytes, or undefined when they are gone (a pruned deploy, a cleaned cache). */
  read(): Promise<Buffer | undefined>
}

export interface PreviousVersionSource {
  /** Names the source in reports and messages, e.g. `folder /srv/www (deploy state)`. */
  readonly description: string
  list(): Promise<PreviousVersion[]>
}

/** The deploy state `@preencode/deploy` keeps at a target's root (only the fields read here). */
const DEPLOY_STATE_FILENAME = '.preencode-deploy-state.json'

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    return undefined
  }
}

/**
 * Reads a previous version only from inside the folder: a link planted there (or a symlinked
 * folder) that leads out is no version, since its bytes would become the dictionary of a delta
 * this site publishes. The path is resolved at read time, so a link swapped in after the listing
 * is caught too.
 */
function reader(root: string, path: string): () => Promise<Buffer | undefined> {
  return async () => {
    try {
      const [realRoot, real] = await Promise.all([realpath(root), realpath(join(root, path))])
      if (!isInsideDirectory(real, realRoot)) return undefined
      const info = await stat(real)
      return info.isFile() ? await readFile(real) : undefined
    } catch {
      return undefined
    }
  }
}

/**
 * A folder holding the deployed site. Versions by age come from its deploy state (every deploy
 * names its keys; old chunks kept by `keep` are still there), else its manifest, else its
 * files, all of generation 0.
 */
export function folderVersionSource(dir: string): PreviousVersionSource {
  let kind = 'files'
  return {
    get description() {
      return `folder ${dir} (${kind})`
    },
    async list() {
      const versions: PreviousVersion[] = []
      const add = (path: string, generation: number, sha256?: unknown): void => {
        if (isSafeRelativePath(path) && (versionedAsset(path) || isSiteDictionary(path))) {
          versions.push({
            path,
            generation,
            read: reader(dir, path),
            ...(typeof sha256 === 'string' ? { sha256 } : {}),
          })
        }
      }
      const stateText = await readText(join(dir, DEPLOY_STATE_FILENAME))
      const state = stateText === undefined ? undefined : parseJson(stateText)
      const deploys = (state as { deploys?: unknown } | undefined)?.deploys
      if (Array.isArray(deploys)) {
        kind = 'deploy state'
        deploys.forEach((record: unknown, generation) => {
          const keys = (record as { keys?: unknown } | null)?.keys
          if (Array.isArray(keys)) for (const key of keys) if (typeof key === 'string') add(key, generation)
        })
        return versions
      }
      const manifestText = await readText(join(dir, MANIFEST_FILENAME))
      const files = (
        manifestText === undefined ? undefined : (parseJson(manifestText) as { files?: unknown } | undefined)
      )?.files
      if (Array.isArray(files)) {
        kind = 'manifest'
        for (const file of files) {
          const { path, sha256 } = (file ?? {}) as { path?: unknown; sha256?: unknown }
          if (typeof path === 'string') add(path, 0, sha256)
        }
        return versions
      }
      kind = 'files'
      // A symlinked folder is not walked into: what it leads to is not the deployed site.
      for (const path of await glob(['**/*'], {
        cwd: dir,
        onlyFiles: true,
        dot: false,
        expandDirectories: false,
        followSymbolicLinks: false,
      }))
        add(path, 0)
      return versions
    },
  }
}

/** What a deploy target (S3, rsync) tells about the site it holds, for {@link deployedVersionSource}. */
export interface DeployedSite {
  /** Names the target, e.g. `s3://site/www/`; no secrets. */
  description: string
  /** Keys the target holds now, or undefined when only the deploy state is known (rsync releases). */
  keys: ReadonlySet<string> | undefined
  /** The deploy state's records (newest first), each naming every key that deploy uploaded or kept. */
  deploys: readonly { keys?: readonly unknown[] }[] | undefined
  /** Reads one object as deployed `generation` deploys ago; undefined when it is gone. */
  read(key: string, generation: number): Promise<Buffer | undefined>
}

/**
 * Previous versions straight from a deploy target: with a deploy state, each deploy's keys are
 * one generation (those no longer stored are skipped); without one, every versioned key the
 * target holds is generation 0. Nothing is read until `writeDeltas` asks for a version, and it
 * asks only for versions of files this build changed.
 */
export function deployedVersionSource(site: DeployedSite): PreviousVersionSource {
  let kind = 'listing'
  return {
    get description() {
      return `${site.description} (${kind})`
    },
    async list() {
      const versions: PreviousVersion[] = []
      const add = (key: string, generation: number): void => {
        if (site.keys !== undefined && !site.keys.has(key)) return
        if (!isSafeRelativePath(key) || !(versionedAsset(key) || isSiteDictionary(key))) return
        versions.push({ path: key, generation, read: () => site.read(key, generation) })
      }
      if (site.deploys !== undefined && site.deploys.length > 0) {
        kind = 'deploy state'
        site.deploys.forEach((record, generation) => {
          for (const key of record.keys ?? []) if (typeof key === 'string') add(key, generation)
        })
      } else {
        kind = 'listing'
        for (const key of site.keys ?? []) add(key, 0)
      }
      return versions
    },
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
