// What a run starts from: the folder itself, and the manifest an earlier run left there.
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { userError } from '../errors.js'
import type { CompressLogger } from '../logger.js'
import { MANIFEST_FILENAME, type Manifest, readManifest } from '../manifest/manifest.js'

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
export async function readPreviousManifest(root: string, logger: CompressLogger): Promise<Manifest | undefined> {
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
