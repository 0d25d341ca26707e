/**
 * What every content-independent config is generated from: the codings, keepOriginals, the
 * Cache-Control value of each class and the rule that puts a URL in a class, and the
 * Content-Type of every compressible extension. All of it comes from options (the manifest
 * only lends its `formats` and the values its build resolved), never from the file list, so
 * two builds of one site with different content give byte-identical configs.
 */
import {
  ALL_ENCODINGS,
  ALL_FORMATS,
  type CacheClass,
  CODECS,
  contentTypeOf,
  type Manifest,
  userError,
} from '@preencode/core'
import {
  ASSET_DICTIONARY_NAME_PATTERN,
  compressibleExtensions,
  DEFAULT_CACHE_CONTROL,
  extensionOf,
  HASHED_NAME_RULE,
  isFormat,
  PAGE_DICTIONARY_NAME_PATTERN,
} from '@preencode/core/internal'
import type { ConventionOptions, ResolvedConventions } from '../http/conventions.js'
import type { Encoding } from '../http/negotiate.js'
import { resolveConventions } from './conventions.js'

/** Options every server shares (`cleanUrls` and `spa`: the static-host conventions, `http/conventions.ts`). */
export interface ServingOptions extends ConventionOptions {
  /**
   * Whether the originals are on disk. `false` adds the rules that decode the gzip variant for
   * clients that accept no coding.
   * @default the build's, from the manifest
   */
  keepOriginals?: boolean
  /**
   * URLs whose responses are `immutable`, as a RegExp over the URL path (`/assets/app-3f2a.js`),
   * written so that PCRE and RE2 (Caddy) read it alike: no lookaround, no backreferences.
   * It must agree with the `cachePolicy.immutable` of the build (checked against the manifest).
   * @default content-hashed names, as `looksContentHashed` in @preencode/core decides
   */
  immutable?: RegExp
  /**
   * Cache-Control per class.
   * @default the build's, from the manifest, else @preencode/core's DEFAULT_CACHE_CONTROL
   */
  cacheControl?: Partial<Record<CacheClass, string>>
  /**
   * Answer a path the site has no file for with the site's `404.html` (status 404, with its
   * variants), as static hosts do. `false` leaves 404s to the server (an include form inside a
   * server block that has its own `error_page`, `ErrorDocument` or `handle_errors`).
   * @default true
   */
  notFoundPage?: boolean
}

export interface ServingPolicy {
  /** Codings served, in the fixed order of preference (the codec table's: br, zstd, gzip). */
  readonly codings: readonly Encoding[]
  readonly keepOriginals: boolean
  readonly cacheControl: Readonly<Record<CacheClass, string>>
  /** Regex source (PCRE and RE2) over the URL path: `immutable` class. */
  readonly immutablePattern: string
  /** Regex source over the URL path: `html` class (checked first); a directory URL is HTML. */
  readonly htmlPattern: string
  /** Content-Type -> its extensions (lower case), every compressible extension once. */
  readonly extensionsByType: ReadonlyMap<string, readonly string[]>
  /** Every compressible extension, hot ones first (regex alternations try them in order). */
  readonly extensions: readonly string[]
  readonly manifestFilename: string
  readonly generator: string
  /** Clean URLs and the SPA fallback; every config also answers a missing path with `404.html`. */
  readonly conventions: ResolvedConventions
  /** Every 404 of the site answers with its `404.html`. */
  readonly notFoundPage: boolean
}

/** Suffix of each coding's sidecar, from the codec table. */
export const SUFFIX: Readonly<Record<Encoding, string>> = Object.freeze(
  Object.fromEntries(ALL_FORMATS.map((f) => [CODECS[f].encoding, CODECS[f].extension])) as Record<Encoding, string>,
)

/** Every coding in the order of preference, from the codec table. */
const PREFERENCE: readonly Encoding[] = ALL_ENCODINGS

/** Extensions most requests end in: tried first by the generated alternations. */
const HOT_EXTENSIONS = ['html', 'js', 'css', 'json', 'svg', 'mjs', 'map', 'txt', 'xml', 'wasm']

/**
 * `looksContentHashed` of @preencode/core as one RE2 regex (Caddy reads RE2: no lookaround),
 * over the URL path. Core's `hashed-name.ts` holds the rule in every dialect.
 */
export function hashedNamePattern(): string {
  return HASHED_NAME_RULE.nameRe2
}

/** The hash token alone (between the separator and the extension), PCRE: core's `HASHED_NAME_RULE.token`. */
export const HASH_TOKEN_PCRE = HASHED_NAME_RULE.token

/** The content-hash rule with lookahead (PCRE: Apache, nginx): the same decisions as `hashedNamePattern()`, a tenth of the compile time. */
export const HASHED_NAME_PCRE = HASHED_NAME_RULE.name

export const HTML_PATTERN = '(?:\\.[Xx]?[Hh][Tt][Mm][Ll]?|/)$'

function fail(message: string): never {
  throw userError('server-config', message)
}

/** The codings a manifest's formats give, in the order of preference. */
export function servedCodings(manifest: Manifest): Encoding[] {
  const formats = Array.isArray(manifest.formats) && manifest.formats.length > 0 ? manifest.formats : ALL_FORMATS
  return PREFERENCE.filter((e) => formats.some((f) => isFormat(f) && CODECS[f].encoding === e))
}

/** Resolves the policy from the options and the manifest's option-level facts, and checks the manifest agrees. */
export function resolveServingPolicy(manifest: Manifest, options: ServingOptions = {}): ServingPolicy {
  const codings = servedCodings(manifest)
  // The build's recorded settings when the manifest has them (they are options, not content).
  const settings = manifest.settings
  const keepOriginals =
    options.keepOriginals ?? settings?.keepOriginals ?? !manifest.files.some((f) => !f.originalOnDisk)
  if (typeof keepOriginals !== 'boolean') fail('`keepOriginals` must be true or false.')
  if (!keepOriginals && !codings.includes('gzip'))
    fail("`keepOriginals: false` needs gzip among the manifest's formats: servers decode the gzip variant.")
  if (options.notFoundPage !== undefined && typeof options.notFoundPage !== 'boolean')
    fail(`\`notFoundPage\` is ${JSON.stringify(options.notFoundPage)}; accepted: true, false.`)
  if (options.immutable !== undefined && !(options.immutable instanceof RegExp))
    fail('`immutable` must be a RegExp over the URL path, e.g. /^\\/assets\\//.')
  const custom = options.immutable?.source
  if (custom !== undefined && /\(\?[=!<]|\\[1-9]/.test(custom))
    fail(
      `\`immutable\` /${custom}/ uses lookaround or a backreference, which Caddy (RE2) cannot read; rewrite it without.`,
    )
  // The page dictionary is content-hashed by construction: immutable whatever the rule (core's
  // cacheClassOf decides the same), so it stays fresh as long as deltas against it are kept.
  const immutablePattern =
    custom === undefined
      ? hashedNamePattern()
      : `(?:${custom})|/${PAGE_DICTIONARY_NAME_PATTERN}$|/${ASSET_DICTIONARY_NAME_PATTERN}$`
  const fromManifest: Partial<Record<CacheClass, string>> = { ...settings?.cacheControl }
  for (const file of manifest.files) fromManifest[file.cacheClass] ??= file.cacheControl
  const cacheControl = { ...DEFAULT_CACHE_CONTROL, ...fromManifest, ...options.cacheControl }
  for (const [cacheClass, value] of Object.entries(cacheControl)) {
    if (typeof value !== 'string' || /["\\\n\r]/.test(value))
      fail(`\`cacheControl.${cacheClass}\` is ${JSON.stringify(value)}; use a header value without quotes or newlines.`)
  }
  const policy: ServingPolicy = {
    codings,
    keepOriginals,
    cacheControl,
    immutablePattern,
    htmlPattern: HTML_PATTERN,
    ...typeTable(),
    manifestFilename: '.preencode-manifest.json',
    generator: manifest.generator,
    conventions: resolveConventions(options),
    notFoundPage: options.notFoundPage ?? true,
  }
  checkManifest(manifest, policy, options.immutable !== undefined)
  return policy
}

function typeTable(): Pick<ServingPolicy, 'extensionsByType' | 'extensions'> {
  const all = compressibleExtensions()
  const extensions = [
    ...HOT_EXTENSIONS.filter((e) => all.includes(e)),
    ...all.filter((e) => !HOT_EXTENSIONS.includes(e)),
  ]
  const extensionsByType = new Map<string, string[]>()
  for (const extension of extensions) {
    const type = contentTypeOf(`x.${extension}`)
    extensionsByType.set(type, [...(extensionsByType.get(type) ?? []), extension])
  }
  return { extensionsByType, extensions }
}

/** The class the generated rules give a URL path. */
function classOfUrl(policy: ServingPolicy, urlPath: string): CacheClass {
  if (new RegExp(policy.htmlPattern).test(urlPath)) return 'html'
  return new RegExp(policy.immutablePattern).test(urlPath) ? 'immutable' : 'default'
}

/**
 * The rules decide by name what the build decided per file; a build with its own
 * `cachePolicy.immutable` (or a file compressed through `include` with no type rule) would be
 * served differently from what its manifest says. Say so, naming the file and the option.
 */
function checkManifest(manifest: Manifest, policy: ServingPolicy, custom: boolean): void {
  const known = new Set(policy.extensions)
  for (const file of manifest.files) {
    const cacheClass = classOfUrl(policy, `/${file.path}`)
    if (cacheClass !== file.cacheClass && file.cacheControl !== policy.cacheControl[cacheClass]) {
      fail(
        `${file.path} is "${file.cacheClass}" in the manifest but the config's rules make it "${cacheClass}": ` +
          (custom ? 'the `immutable` pattern of the server config' : 'the default content-hash pattern') +
          " disagrees with the build's `cachePolicy.immutable`. Pass the same rule as `immutable` (a RegExp over the URL path) to the server config.",
      )
    }
    const extension = extensionOf(file.path).slice(1).toLowerCase()
    if (file.variants.length > 0 && !known.has(extension)) {
      fail(
        `${file.path} has variants but its extension is not a compressible type, so no server rule serves them; leave it out of \`include\`.`,
      )
    }
  }
}
