import { type CompressOptions, resolveCompressOptions } from '../options/compress-options.js'
import { type CompressHooks, type CompressResult, compressDirectory } from './compress-directory.js'

/**
 * For scripts: resolves `options` (against the working directory) and compresses `dir` with
 * them. Integrations resolve once and call `compressDirectory` with the resolved options.
 */
export async function compress(
  dir: string,
  options: CompressOptions = {},
  hooks: CompressHooks = {},
): Promise<CompressResult> {
  return await compressDirectory(dir, resolveCompressOptions(options), hooks)
}
