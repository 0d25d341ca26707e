/**
 * The last step of every run: the deployed folder looked at as a server would see it. A variant
 * whose original changed or is gone is never left to be served, and a compressible file written
 * after preencode ran (or skipped as late while it was being written) gets its variants: the
 * folder is reconciled, as `deploy` and `verify` do. In a build the one line that says so comes
 * as the process exits (`folders-at-exit.ts`: core's `guardFolder` looks once more then); in
 * watch mode, now.
 */
import { realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { ResolvedCompressOptions } from '@preencode/core'
import { readManifest, reconcileManifest } from '@preencode/core'
import { fileRuleOf, manifestDrift, skipReason } from '@preencode/core/internal'
import type { Logger } from 'vite'
import { guardAfterRun } from './folders-at-exit.js'

export interface FinalLook {
  /** The folder a server serves (absolute). */
  dir: string
  /** The project root: the folder is named relative to it. */
  root: string
  options: ResolvedCompressOptions
  logger: Logger
  /** Files the run skipped because they changed or went away while it read them (`CompressReport.late`). */
  late?: readonly string[] | undefined
  /** A build (not watch mode): the folder is looked at again as the process exits, and the line waits for that. */
  atExit: boolean
}

/** Looks at `dir` after preencode ran; see the module comment. Never throws for a missing manifest. */
export async function lookAsServer({
  dir: folderPath,
  root,
  options,
  logger,
  late = [],
  atExit,
}: FinalLook): Promise<void> {
  const dir = await realpath(folderPath).catch(() => folderPath)
  const manifest = await readManifest(dir).catch(() => undefined)
  if (!manifest) return
  const drift = await manifestDrift(dir, manifest)
  const stale = [...drift.changed, ...drift.removed, ...drift.damaged, ...drift.leftovers]
  const found = [...stale, ...(await eligible(dir, drift.added, options))]
  // The same repair deploy and verify make: compress again with the settings the manifest
  // records (unchanged files are cache hits), so every variant holds its original's bytes and
  // every file the rule compresses has its variants.
  if (found.length > 0) await reconcileManifest(dir)
  guardAfterRun(folderPath, root, logger, [...late, ...found], atExit)
}

/** The paths among `added` that preencode compresses: core's one rule (type or `include`, `exclude`, threshold). */
async function eligible(dir: string, added: readonly string[], options: ResolvedCompressOptions): Promise<string[]> {
  const rule = fileRuleOf(options)
  const found: string[] = []
  for (const path of added) {
    const size = (await stat(join(dir, path)).catch(() => undefined))?.size ?? 0
    if (skipReason(rule, path, size) === undefined) found.push(path)
  }
  return found
}
