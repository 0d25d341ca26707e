// The delta-update flags of `preencode compress` (RFC 9842): they become the `deltas` option the
// plugins take, resolved by `resolveBuildOptions` with the rest; the build runner writes the deltas.
import type { DeltaOptions } from '@preencode/core'
import { parseInteger, parseList } from './flags.js'

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
  'asset-dictionary': {
    type: 'boolean',
    description:
      "Asset dictionary: preencode-assets-<hash>.txt of the build's hashed scripts and styles, linked from each page, so the next build's chunks with new names get deltas too (off by default: it edits the pages)",
  },
} as const

interface DeltaFlags {
  deltas?: boolean | undefined
  previous?: string | undefined
  'delta-versions'?: string | undefined
  'delta-encodings'?: string | undefined
  pages?: boolean | undefined
  'asset-dictionary'?: boolean | undefined
}

/** The flag a delta option is set by, for messages (`--delta-versions`). */
export function deltaFlagLabel(key: string): string {
  const flags: Record<string, string> = {
    '': '--deltas',
    versions: '--delta-versions',
    encodings: '--delta-encodings',
    assets: '--asset-dictionary',
  }
  return flags[key] ?? `--${key}`
}

/**
 * The `deltas` setting the flags ask for, resolved with every other build option: false with
 * --no-deltas, unset when no delta flag was given (on where this Node can), else delta options.
 */
export function deltasFromFlags(flags: DeltaFlags, rawArgs: readonly string[]): boolean | DeltaOptions | undefined {
  if (flags.deltas === false) return false
  const asked = rawArgs.some((arg) =>
    /^--(?:deltas|previous|delta-versions|delta-encodings|pages|asset-dictionary)(?:=|$)/.test(arg),
  )
  if (!asked) return undefined
  const options: DeltaOptions = {}
  if (flags.previous !== undefined) options.previous = flags.previous
  const versions = parseInteger(flags['delta-versions'], 'delta-versions')
  if (versions !== undefined) options.versions = versions
  const encodings = parseList(flags['delta-encodings'], 'delta-encodings')
  if (encodings) options.encodings = encodings as DeltaOptions['encodings']
  if (flags.pages === true) options.pages = true
  if (flags['asset-dictionary'] === true) options.assets = true
  return options
}
