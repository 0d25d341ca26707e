import { type CompressOptions, resolveCompressOptions } from '../options/compress-options.js'
import { type CompressResult, type CompressRun, compressDirectory } from './compress-directory.js'

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
