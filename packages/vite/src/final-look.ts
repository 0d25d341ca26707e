/**
 * The last step of every run: the deployed folder looked at as a server would see it. A variant
 * whose original changed or is gone is never left to be served (the folder is reconciled, as
 * `deploy` and `verify` do); a compressible file that has no variants is named, with the
 * command that compresses it.
 */
import { realpath, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { isCompressible, readManifest, reconcileManifest, type Manifest } from '@preencode/core'
import { manifestDrift, scanDirectory } from '@preencode/core/internal'
import type { ResolvedCompressOptions } from '@preencode/core'
import type { Logger } from 'vite'
import { compressAfterBuild } from './frameworks.js'

/** Names shown in a warning line; the count says how many more. */
const NAMED = 5

export interface FinalLook {
  /** The folder a server serves (absolute). */
  dir: string
  /** The project root: the folder is named relative to it. */
  root: string
  options: ResolvedCompressOptions
  logger: Logger
}

/** Looks at `dir` after preencode ran; see the module comment. Never throws for a missing manifest. */
export async function lookAsServer({ dir: folderPath, root, options, logger }: FinalLook): Promise<void> {
  const dir = await realpath(folderPath).catch(() => folderPath)
  const manifest = await readManifest(dir).catch(() => undefined)
  if (!manifest) return
  const drift = await manifestDrift(dir, manifest)
  const stale = [...drift.changed, ...drift.removed, ...drift.damaged, ...drift.leftovers]
  const folder = relative(root, folderPath) || '.'
  if (stale.length > 0) {
    // The same repair deploy and verify make: compress again with the settings the manifest
    // records (unchanged files are cache hits), so every variant holds its original's bytes.
    await reconcileManifest(dir)
    logger.warn(
      `[preencode] ${stale.length} file(s) in ${folder} changed or went away after preencode compressed it (${named(stale)}): compressed again, so no stale variant is served.`,
    )
    return
  }
  const missing = await eligible(dir, manifest, drift.added, options)
  if (missing.length === 0) return
  logger.warn(
    `[preencode] ${missing.length} compressible file(s) in ${folder} have no compressed variants, written after preencode ran (${named(missing)}). ${compressAfterBuild(root, folder)}`,
  )
}

/** The paths among `added` that preencode would compress: its own rule (type or `include`, `exclude`, threshold). */
async function eligible(
  dir: string,
  manifest: Manifest,
  added: readonly string[],
  options: ResolvedCompressOptions,
): Promise<string[]> {
  if (added.length === 0) return []
  const scan = await scanDirectory(dir, { include: options.include, exclude: options.exclude, previous: manifest })
  const found: string[] = []
  for (const path of added) {
    if (scan.excluded.has(path) || (!scan.included.has(path) && !isCompressible(path))) continue
    const size = (await stat(join(dir, path)).catch(() => undefined))?.size ?? 0
    if (size > 0 && size >= options.threshold) found.push(path)
  }
  return found
}

function named(paths: readonly string[]): string {
  const more = paths.length > NAMED ? `, and ${paths.length - NAMED} more` : ''
  return `${paths.slice(0, NAMED).join(', ')}${more}`
}
