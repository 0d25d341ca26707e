import { resolveCompressOptions, userError, type CompressOptions, type ResolvedCompressOptions } from '@preencode/core'

/** Options of the SvelteKit adapter wrapper: every compression option, plus how the report is printed. */
export interface PreencodeSvelteKitOptions extends CompressOptions {
  /**
   * Print the compression report through SvelteKit's builder log after the adapter has written:
   * `true` for the table, `'json'` for one line of JSON (the `CompressReport`), `false` for nothing.
   * @default true
   */
  report?: boolean | 'json'
}

export interface ResolvedPreencodeSvelteKitOptions {
  report: boolean | 'json'
  compress: ResolvedCompressOptions
  /** What is passed to `compressDirectory`: the user's options with the cache made absolute. */
  compressOptions: CompressOptions
}

/** Validates the wrapper's options once; fails naming the option and what it accepts. */
export function resolvePreencodeSvelteKitOptions(options: PreencodeSvelteKitOptions, root: string): ResolvedPreencodeSvelteKitOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw userError('sveltekit', `preencode(adapter, options) takes an options object; got ${options === null ? 'null' : typeof options}.`)
  }
  const { report = true, ...compressOptions } = options
  if (report !== true && report !== false && report !== 'json') {
    throw userError('sveltekit', `\`report\` is ${JSON.stringify(report)}; it accepts true, false or 'json'.`)
  }
  const compress = resolveCompressOptions(compressOptions, root)
  return { report, compress, compressOptions: { ...compressOptions, cache: compress.cacheDir } }
}
