/**
 * The cache's memory of past builds, for delta updates when no deployed folder is at hand (a
 * laptop, or CI with a persisted cache): the versioned assets of each build that changed them,
 * per site (keyed by the output folder's absolute path), newest first.
 *
 * Layout: `<cache>/versions-v1/<site id>/history.json` and `…/blobs/<sha256>`. Blobs no build in
 * the history names are deleted when a build is remembered. A build with the same versioned
 * files as the last one adds nothing, so rebuilding without changes does not push the deployed
 * version out of the window.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomically } from '../fs/write.js'
import { sha256Hex } from '../hash.js'
import type { PreviousVersion, PreviousVersionSource } from './previous-versions.js'

const LAYOUT = 'versions-v1'
/** Builds remembered at most; `versions` beyond this gets no more dictionaries. */
const MAX_REMEMBERED_BUILDS = 20

interface History {
  /** Newest first: path -> sha256 (hex) of each versioned asset of that build. */
  builds: { time: number; files: Record<string, string> }[]
}

export interface RememberedFile {
  path: string
  sha256: string
  read(): Promise<Buffer>
}

function siteDir(cacheDir: string, root: string): string {
  return join(cacheDir, LAYOUT, sha256Hex(root).slice(0, 16))
}

async function readHistory(dir: string): Promise<History> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, 'history.json'), 'utf8')) as Partial<History>
    return Array.isArray(parsed.builds)
      ? { builds: parsed.builds.filter((b) => b && typeof b.files === 'object') }
      : { builds: [] }
  } catch {
    return { builds: [] }
  }
}

/** The builds remembered for the site at `root` (absolute), as a source of previous versions. */
export function cacheVersionSource(cacheDir: string, root: string): PreviousVersionSource {
  const dir = siteDir(cacheDir, root)
  return {
    description: `build history in ${join(cacheDir, LAYOUT)}`,
    async list() {
      const history = await readHistory(dir)
      const versions: PreviousVersion[] = []
      history.builds.forEach((build, generation) => {
        for (const [path, sha256] of Object.entries(build.files)) {
          if (!/^[0-9a-f]{64}$/.test(sha256)) continue
          versions.push({
            path,
            generation,
            sha256,
            read: async () => {
              const bytes = await readFile(join(dir, 'blobs', sha256)).catch(() => undefined)
              // A truncated or altered blob is as good as gone.
              return bytes && sha256Hex(bytes) === sha256 ? bytes : undefined
            },
          })
        }
      })
      return versions
    },
  }
}

/**
 * Records this build's versioned assets as the newest generation (unless it equals the last
 * one) and drops builds and blobs beyond `keep`.
 */
export async function rememberVersions(
  cacheDir: string,
  root: string,
  files: readonly RememberedFile[],
  keep: number,
): Promise<void> {
  const dir = siteDir(cacheDir, root)
  const history = await readHistory(dir)
  const current: Record<string, string> = {}
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) current[file.path] = file.sha256
  const last = history.builds[0]?.files
  if (last && JSON.stringify(last) === JSON.stringify(current)) return
  await mkdir(join(dir, 'blobs'), { recursive: true })
  const known = new Set(history.builds.flatMap((b) => Object.values(b.files)))
  for (const file of files) {
    if (!known.has(file.sha256)) await writeFileAtomically(join(dir, 'blobs', file.sha256), await file.read())
  }
  const builds = [{ time: Date.now(), files: current }, ...history.builds].slice(
    0,
    Math.min(keep, MAX_REMEMBERED_BUILDS),
  )
  await writeFileAtomically(join(dir, 'history.json'), `${JSON.stringify({ builds } satisfies History)}\n`)
  const named = new Set(builds.flatMap((b) => Object.values(b.files)))
  for (const name of await readdir(join(dir, 'blobs')).catch(() => [] as string[])) {
    if (!named.has(name)) await rm(join(dir, 'blobs', name), { force: true })
  }
}
