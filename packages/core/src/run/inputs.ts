// What a run starts from: the folder itself, the manifest an earlier run left there, and the scan.
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { CODECS, FALLBACK_FORMAT } from '../codecs/table.js'
import { userError } from '../errors.js'
import type { CompressLogger } from '../logger.js'
import { MANIFEST_FILENAME, type Manifest, readManifest } from '../manifest/manifest.js'
import type { ResolvedCompressOptions } from '../options/compress-options.js'
import type { FileJob } from './file-job.js'
import { scanDirectory } from './scan.js'
import { warnSkipped } from './summary.js'

/** Fails naming the folder when it is missing, unreadable or not a folder. */
export async function assertDirectory(root: string): Promise<void> {
  const info = await stat(root).catch((cause: unknown) => {
    const code = (cause as NodeJS.ErrnoException).code
    throw userError(
      'core',
      code === 'ENOENT'
        ? `Directory ${root} does not exist.`
        : `Cannot read directory ${root}: ${code ?? String(cause)}.`,
      { cause, code: 'BAD_INPUT' },
    )
  })
  if (!info.isDirectory())
    throw userError('core', `${root} is not a directory; pass the build output folder.`, { code: 'BAD_INPUT' })
}

/** A missing previous manifest is normal (first run); a broken one is worth a warning, not a failure. */
async function readPreviousManifest(root: string, logger: CompressLogger): Promise<Manifest | undefined> {
  try {
    await stat(join(root, MANIFEST_FILENAME))
  } catch {
    return undefined
  }
  try {
    return await readManifest(root)
  } catch (error) {
    logger.warn(`ignoring the previous manifest: ${(error as Error).message}`)
    return undefined
  }
}

/** What a run reads before it plans: the previous manifest, the scan, and the files to process. */
export interface RunInputs {
  previous: Manifest | undefined
  scan: Awaited<ReturnType<typeof scanDirectory>>
  /** Every original on disk, and those `keepOriginals: false` removed last time (their .gz carries the bytes). */
  pending: FileJob[]
}

/** Reads the previous manifest and scans `root`, warning about what the user may not expect. */
export async function readRunInputs(
  root: string,
  options: ResolvedCompressOptions,
  logger: CompressLogger,
): Promise<RunInputs> {
  const previous = await readPreviousManifest(root, logger)
  const scan = await scanDirectory(root, {
    include: options.include,
    exclude: options.exclude,
    ...(previous ? { previous } : {}),
    skipDirs: options.cacheDir === false ? [] : [options.cacheDir],
  })
  warnSkipped(logger, root, scan.skipped)
  // A typo in `include` (`*.hmtl`) would otherwise strip every variant without a word.
  if (options.include.length > 0 && scan.included.size === 0 && scan.originals.length > 0)
    logger.warn(
      `\`include\` (${options.include.map(String).join(', ')}) matches no file in ${root}: no file is compressed, and variants written before are removed`,
    )
  const onDisk = new Set(scan.originals)
  const variantsOnDisk = new Set(scan.variants)
  const pending: FileJob[] = scan.originals.map((path) => ({ path, recoverFromGzip: false }))
  for (const file of previous?.files ?? []) {
    if (
      !file.originalOnDisk &&
      !onDisk.has(file.path) &&
      variantsOnDisk.has(`${file.path}${CODECS[FALLBACK_FORMAT].extension}`)
    ) {
      pending.push({ path: file.path, recoverFromGzip: true, expectedSize: file.size })
    }
  }
  return { previous, scan, pending }
}
