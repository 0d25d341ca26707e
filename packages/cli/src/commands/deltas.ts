// The delta-update flags of `preencode compress` (RFC 9842) and the step they drive: after the
// compression, `writeDeltas` announces content-hashed assets and writes .dcb/.dcz deltas against
// the versions visitors may hold.
import {
  formatDeltaReport,
  resolveDeltaOptions,
  supportsDictionaryCompression,
  userError,
  writeDeltas,
  type DeltaOptions,
  type DeltaReport,
  type Manifest,
  type ResolvedCompressOptions,
  type ResolvedDeltaOptions,
} from '@preencode/core'
import { parseInteger, parseList } from '../cli-utils.js'

export const deltaArgs = {
  deltas: {
    type: 'boolean',
    default: true,
    description:
      'Delta updates (RFC 9842): announce hashed assets as dictionaries and write .dcb/.dcz against their previous versions',
    negativeDescription: 'No Use-As-Dictionary, no deltas',
  },
  previous: {
    type: 'string',
    description:
      "Folder holding the deployed site, to make deltas against its versions (default: the cache's build history)",
    valueHint: 'dir',
  },
  'delta-versions': {
    type: 'string',
    description: 'Deltas against at most this many previous versions of each file (default 4)',
    valueHint: 'n',
  },
  'delta-encodings': { type: 'string', description: 'Comma-separated: dcb,dcz (default both)', valueHint: 'list' },
  pages: {
    type: 'boolean',
    description:
      'Shared page dictionary: build preencode-dictionary-<hash>.txt from the HTML pages, link it from each page, write page deltas against it (off by default: it edits the pages)',
  },
} as const

interface DeltaFlags {
  deltas?: boolean | undefined
  previous?: string | undefined
  'delta-versions'?: string | undefined
  'delta-encodings'?: string | undefined
  pages?: boolean | undefined
}

/** The delta options the flags ask for; undefined when off (or unsupported and not asked for). */
export function resolveDeltaFlags(flags: DeltaFlags, rawArgs: readonly string[]): ResolvedDeltaOptions | undefined {
  if (flags.deltas === false) return undefined
  const asked = rawArgs.some((arg) => /^--(?:deltas|previous|delta-versions|delta-encodings|pages)(?:=|$)/.test(arg))
  if (!supportsDictionaryCompression()) {
    if (!asked) return undefined
    throw userError(
      'cli',
      `--deltas needs Node >= 24.15 (brotli with a dictionary); this is Node ${process.versions.node}. Upgrade Node or pass --no-deltas.`,
    )
  }
  const options: DeltaOptions = {}
  if (flags.previous !== undefined) options.previous = flags.previous
  const versions = parseInteger(flags['delta-versions'], 'delta-versions')
  if (versions !== undefined && (versions < 1 || versions > 20))
    throw userError('cli', `--delta-versions is ${versions}; it must be a whole number from 1 to 20.`)
  if (versions !== undefined) options.versions = versions
  const encodings = parseList(flags['delta-encodings'], 'delta-encodings')
  if (encodings?.some((e) => e !== 'dcb' && e !== 'dcz'))
    throw userError('cli', `--delta-encodings is \`${flags['delta-encodings']}\`; it accepts dcb, dcz or both.`)
  if (encodings) options.encodings = encodings as DeltaOptions['encodings']
  if (flags.pages === true) options.pages = true
  return resolveDeltaOptions(options, process.cwd(), 'deltas')
}

/** Writes the deltas of a compressed folder and renders their report. */
export async function runDeltas(
  dir: string,
  manifest: Manifest,
  compress: ResolvedCompressOptions,
  resolved: ResolvedDeltaOptions,
  logger: { warn(message: string): void },
): Promise<{ report: DeltaReport; text: string }> {
  const { report } = await writeDeltas(dir, manifest, resolved, {
    cacheDir: compress.cacheDir,
    cacheMaxBytes: compress.cacheMaxBytes,
    concurrency: compress.concurrency,
    levels: { brotli: compress.levels.brotli, zstd: compress.levels.zstd },
    logger,
  })
  return { report, text: formatDeltaReport(report) }
}
