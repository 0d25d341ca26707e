import {
  resolveCompressOptions,
  userError,
  type CompressOptions,
  type ResolvedCompressOptions,
} from '@preencode/core'

/** Options of `preencode()` for Rollup: every compression option, plus how it reports. */
export interface PreencodeRollupOptions extends CompressOptions {
  /**
   * Report after each build through Rollup's log (`this.info`): `true` for the table, `'json'`
   * for one line of JSON (the `CompressReport`), `false` for nothing.
   * @default true
   */
  report?: boolean | 'json'
}

export interface ResolvedPreencodeRollupOptions {
  report: boolean | 'json'
  compress: ResolvedCompressOptions
  /** What is passed to `compressDirectory`: the user's options with the cache made absolute. */
  compressOptions: CompressOptions
}

/** Validates once; fails naming the option and what it accepts. */
export function resolvePreencodeRollupOptions(
  options: PreencodeRollupOptions,
  cwd: string = process.cwd(),
): ResolvedPreencodeRollupOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw userError('rollup', `preencode() takes an options object; got ${options === null ? 'null' : typeof options}.`)
  }
  const { report = true, ...compressOptions } = options
  if (report !== true && report !== false && report !== 'json') {
    throw userError('rollup', `\`report\` is ${JSON.stringify(report)}; it accepts true, false or 'json'.`)
  }
  const compress = resolveCompressOptions(compressOptions, cwd)
  return { report, compress, compressOptions: { ...compressOptions, cache: compress.cacheDir } }
}
