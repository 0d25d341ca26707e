import { compressDirectory, type CompressResult, type CompressRun } from './compress-directory.js'
import { resolveCompressOptions, type CompressOptions } from '../options/compress-options.js'

/**
 * For scripts: resolves `options` (against the working directory) and compresses `dir` with
 * them. Integrations resolve once and call `compressDirectory` with the resolved options.
 */
export async function compress(
  dir: string,
  options: CompressOptions = {},
  run: CompressRun = {},
): Promise<CompressResult> {
  return await compressDirectory(dir, resolveCompressOptions(options), run)
}
