import { resolve } from 'node:path'
import {
  DICTIONARY_ENCODINGS,
  type DictionaryEncoding,
  dictionaryNodeProblem,
  isDictionaryEncoding,
  supportsDictionaryCompression,
} from '../codecs/dictionary.js'
import { type ErrorComponent, userError } from '../errors.js'
import { KEY_LABEL, type OptionLabel, within } from './option-label.js'

/**
 * Compression Dictionary Transport (RFC 9842) for content-hashed assets: each one is announced as
 * a dictionary for its own next versions (`Use-As-Dictionary`), and each new version gets `.dcb`
 * / `.dcz` deltas against the versions visitors may still hold.
 */
export interface DeltaOptions {
  /**
   * Where the previously deployed site can be read: a folder (a local-folder deploy target,
   * or a copy of what is live). Its deploy state, else its manifest, else its files name the
   * versions. Without it, the builds remembered in the cache are used.
   * @default undefined (the cache's build history)
   */
  previous?: string
  /**
   * Deltas are written against at most this many previous versions of each file (the newest
   * first): visitors who come back after more deploys than this get brotli. The default is the
   * answer of the rule measured by `pnpm bench -- --only versions` (docs/dictionary-transport.md).
   * @default 4
   */
  versions?: number
  /**
   * Which dictionary codings to write. Chromium accepts both; dcb is usually smaller.
   * @default ['dcb', 'dcz']
   */
  encodings?: DictionaryEncoding[]
  /**
   * Previous versions larger than this many bytes are not used as dictionaries (the browser
   * keeps them in memory to decode).
   * @default 16777216 (16 MiB)
   */
  maxDictionaryBytes?: number
  /**
   * A shared dictionary for the site's HTML pages (`preencode-dictionary-<hash>.txt`, linked from every
   * page), and page deltas against it: a navigation to another page sends only what differs.
   * Off by default because it edits the HTML pages (one `<link>` each).
   * @default false
   */
  pages?: boolean
  /**
   * Size of the page dictionary in bytes.
   * @default 65536
   */
  pageDictionaryBytes?: number
  /**
   * A dictionary of the build's content-hashed scripts and styles (`preencode-assets-<hash>.txt`,
   * linked from every page, `Use-As-Dictionary: match="*"`), and deltas of the next builds'
   * scripts and styles against it: a chunk whose name is new (code split differently) arrives as
   * a delta too. A chunk whose name stem survived still uses its own previous version (the
   * longest `match` wins). Off by default because it edits the HTML pages (one `<link>` each).
   * @default false
   */
  assets?: boolean
  /**
   * Remember this build's versioned assets in the cache (`<cache>/versions`) for the next build.
   * @default true
   */
  remember?: boolean
}

/** `DeltaOptions` validated, with every default filled in: what `resolveDeltaOptions` returns. */
export interface ResolvedDeltaOptions {
  /** Absolute folder of the previous deploy, or undefined to use the cache's history. */
  previous: string | undefined
  versions: number
  encodings: DictionaryEncoding[]
  maxDictionaryBytes: number
  pages: boolean
  pageDictionaryBytes: number
  assets: boolean
  remember: boolean
}

/** The defaults of `DeltaOptions` (documented on each option). */
export const DEFAULT_DELTA_OPTIONS = Object.freeze({
  versions: 4,
  encodings: [...DICTIONARY_ENCODINGS],
  maxDictionaryBytes: 16 * 1024 * 1024,
  pages: false,
  pageDictionaryBytes: 65536,
  assets: false,
  remember: true,
} satisfies Partial<ResolvedDeltaOptions>)

const KEYS = new Set([
  'previous',
  'versions',
  'encodings',
  'maxDictionaryBytes',
  'pages',
  'pageDictionaryBytes',
  'assets',
  'remember',
])

/** Validates `deltas` options; `label` names a key where the user wrote it (`label('versions')`). */
export function resolveDeltaOptions(
  options: DeltaOptions = {},
  cwd: string = process.cwd(),
  label: OptionLabel = within('deltas', KEY_LABEL),
): ResolvedDeltaOptions {
  const fail = (message: string): never => {
    throw userError('options', message)
  }
  if (typeof options !== 'object' || options === null) fail(`${label('')} must be true, false or an object.`)
  for (const key of Object.keys(options)) {
    if (!KEYS.has(key)) fail(`Unknown option ${label(key)}. Known: ${[...KEYS].join(', ')}.`)
  }
  if (options.previous !== undefined && (typeof options.previous !== 'string' || options.previous === '')) {
    fail(`${label('previous')} must be the path of a folder holding the deployed site.`)
  }
  const versions = options.versions ?? DEFAULT_DELTA_OPTIONS.versions
  if (!Number.isInteger(versions) || versions < 1 || versions > 20)
    fail(`${label('versions')} is ${String(versions)}; it must be a whole number from 1 to 20.`)
  const encodings = options.encodings ?? [...DEFAULT_DELTA_OPTIONS.encodings]
  if (!Array.isArray(encodings) || encodings.length === 0 || !encodings.every(isDictionaryEncoding)) {
    fail(
      `${label('encodings')} is ${JSON.stringify(encodings)}; it accepts a non-empty list of ${DICTIONARY_ENCODINGS.join(', ')}.`,
    )
  }
  const maxDictionaryBytes = options.maxDictionaryBytes ?? DEFAULT_DELTA_OPTIONS.maxDictionaryBytes
  if (!Number.isInteger(maxDictionaryBytes) || maxDictionaryBytes < 1 || maxDictionaryBytes > 128 * 1024 * 1024) {
    fail(
      `${label('maxDictionaryBytes')} is ${String(maxDictionaryBytes)}; it must be a whole number of bytes from 1 to 134217728 (128 MiB).`,
    )
  }
  const pages = options.pages ?? DEFAULT_DELTA_OPTIONS.pages
  if (typeof pages !== 'boolean') fail(`${label('pages')} must be true or false.`)
  const pageDictionaryBytes = options.pageDictionaryBytes ?? DEFAULT_DELTA_OPTIONS.pageDictionaryBytes
  if (!Number.isInteger(pageDictionaryBytes) || pageDictionaryBytes < 1024 || pageDictionaryBytes > 1024 * 1024) {
    fail(
      `${label('pageDictionaryBytes')} is ${String(pageDictionaryBytes)}; it must be a whole number of bytes from 1024 to 1048576.`,
    )
  }
  const assets = options.assets ?? DEFAULT_DELTA_OPTIONS.assets
  if (typeof assets !== 'boolean') fail(`${label('assets')} must be true or false.`)
  const remember = options.remember ?? DEFAULT_DELTA_OPTIONS.remember
  if (typeof remember !== 'boolean') fail(`${label('remember')} must be true or false.`)
  return {
    previous: options.previous === undefined ? undefined : resolve(cwd, options.previous),
    versions,
    encodings: [...new Set(encodings)],
    maxDictionaryBytes,
    pages,
    pageDictionaryBytes,
    assets,
    remember,
  }
}

export interface DeltasSettingContext {
  /** Where a relative `previous` is found from: the project root. */
  cwd: string
  /** Names the entry point in errors (`vite`, `cli`, `deploy`). */
  component: ErrorComponent
  /** Names a key of the delta options where the user wrote it (`label('versions')`). @default `` `deltas.<key>` `` */
  label?: OptionLabel | undefined
  /** How the user turns delta updates off, for the Node message. @default 'set `deltas: false`' */
  off?: string | undefined
  /** What `undefined` means: on for a build, off for a deploy whose build made none. @default true */
  onByDefault?: boolean | undefined
  /** Options under the user's (a deploy's `pages` from the build). @default {} */
  defaults?: DeltaOptions | undefined
  /** Options over the user's (a deploy never adds to the cache's build history). @default {} */
  overrides?: DeltaOptions | undefined
}

/**
 * The `deltas` setting of every entry point (`true`, `false`, delta options or unset), resolved
 * once: unset and on by default, it quietly does nothing on a Node without brotli dictionaries;
 * asked for there, it fails saying which Node is needed. Returns false when off.
 */
export function resolveDeltasSetting(value: unknown, context: DeltasSettingContext): ResolvedDeltaOptions | false {
  const label = context.label ?? within('deltas', KEY_LABEL)
  if (value === false) return false
  if (value !== undefined && value !== true && (typeof value !== 'object' || value === null || Array.isArray(value)))
    throw userError(
      context.component,
      `${label('')} is ${JSON.stringify(value)}; it accepts true, false or an object of delta options.`,
    )
  if (value === undefined && (context.onByDefault === false || !supportsDictionaryCompression())) return false
  if (!supportsDictionaryCompression())
    throw userError(context.component, dictionaryNodeProblem(label(''), context.off ?? 'set `deltas: false`'))
  const given = value === true || value === undefined ? {} : (value as DeltaOptions)
  return resolveDeltaOptions({ ...context.defaults, ...given, ...context.overrides }, context.cwd, label)
}
