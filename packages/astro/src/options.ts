import { resolveCompressOptions, userError, type CompressOptions, type ResolvedCompressOptions } from '@preencode/core'

/** Options of the Astro integration: every compression option, plus how the report is printed. */
export interface PreencodeAstroOptions extends CompressOptions {
  /**
   * Print the compression report through Astro's logger after the build: `true` for the table,
   * `'json'` for one line of JSON (the `CompressReport`), `false` for nothing.
   * @default true
   */
  report?: boolean | 'json'
}

export interface ResolvedPreencodeAstroOptions {
  report: boolean | 'json'
  compress: ResolvedCompressOptions
  /** What is passed to `compressDirectory`: the user's options with the cache made absolute. */
  compressOptions: CompressOptions
}

/** Validates the integration's options once; fails naming the option and what it accepts. */
export function resolvePreencodeAstroOptions(options: PreencodeAstroOptions, root: string): ResolvedPreencodeAstroOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw userError('astro', `preencode() takes an options object; got ${options === null ? 'null' : typeof options}.`)
  }
  const { report = true, ...compressOptions } = options
  if (report !== true && report !== false && report !== 'json') {
    throw userError('astro', `\`report\` is ${JSON.stringify(report)}; it accepts true, false or 'json'.`)
  }
  const compress = resolveCompressOptions(compressOptions, root)
  return { report, compress, compressOptions: { ...compressOptions, cache: compress.cacheDir } }
}
