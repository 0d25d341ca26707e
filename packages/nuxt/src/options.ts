import { resolveCompressOptions, userError, type CompressOptions, type ResolvedCompressOptions } from '@preencode/core'

/** Options of the Nuxt module: every compression option, plus how the report is printed. */
export interface PreencodeNuxtOptions extends CompressOptions {
  /**
   * Print the compression report through Nuxt's logger after the build: `true` for the table,
   * `'json'` for one line of JSON (the `CompressReport`), `false` for nothing.
   * @default true
   */
  report?: boolean | 'json'
}

export interface ResolvedPreencodeNuxtOptions {
  report: boolean | 'json'
  compress: ResolvedCompressOptions
  /** What is passed to `compressDirectory`: the user's options with the cache made absolute. */
  compressOptions: CompressOptions
}

/** Validates the module's options once; fails naming the option and what it accepts. */
export function resolvePreencodeNuxtOptions(options: PreencodeNuxtOptions, root: string): ResolvedPreencodeNuxtOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw userError('nuxt', `the \`preencode\` options in nuxt.config must be an object; got ${options === null ? 'null' : typeof options}.`)
  }
  const { report = true, ...compressOptions } = options
  if (report !== true && report !== false && report !== 'json') {
    throw userError('nuxt', `\`report\` is ${JSON.stringify(report)}; it accepts true, false or 'json'.`)
  }
  const compress = resolveCompressOptions(compressOptions, root)
  return { report, compress, compressOptions: { ...compressOptions, cache: compress.cacheDir } }
}
