import { looksContentHashed } from './hashed-name.js'
import { isSiteDictionary } from './page-dictionary-name.js'

/**
 * How long browsers and CDNs may keep a file. Content-hashed assets never change under their
 * name, so they can be cached for a year; HTML names those assets, so it must be revalidated.
 */
export type CacheClass = 'immutable' | 'html' | 'default'

/** The `cachePolicy` option: which files are immutable and the Cache-Control value of each class. */
export interface CachePolicyOptions {
  /**
   * Decides which files are content-hashed. A RegExp is tested against the POSIX path.
   * @default files whose name carries an 8-character base64url hash (Vite, Rollup, Astro) or a hex hash of 9-15 digits holding a 0-9 (Rsbuild, Rspack, webpack `[contenthash:10]`) or of 16-64 (webpack, Hugo)
   */
  immutable?: RegExp | ((path: string) => boolean)
  /** @default 'public, max-age=31536000, immutable' */
  immutableCacheControl?: string
  /** @default 'no-cache' */
  htmlCacheControl?: string
  /** @default 'public, max-age=3600' */
  defaultCacheControl?: string
}

export interface ResolvedCachePolicy {
  isImmutable: (path: string) => boolean
  /** How `isImmutable` decides, for the manifest: `default`, a RegExp as `/source/flags`, or `function`. */
  immutableRule: string
  headers: Readonly<Record<CacheClass, string>>
}

/** The default rule (`hashed-name.ts`): an 8-char base64url token needs a digit or two capitals to count as a hash. */
export { looksContentHashed }

export const DEFAULT_CACHE_CONTROL = Object.freeze({
  immutable: 'public, max-age=31536000, immutable',
  html: 'no-cache',
  default: 'public, max-age=3600',
} satisfies Record<CacheClass, string>)

export function resolveCachePolicy(options: CachePolicyOptions = {}): ResolvedCachePolicy {
  const { immutable } = options
  const isImmutable =
    immutable instanceof RegExp ? (path: string) => immutable.test(path) : (immutable ?? looksContentHashed)
  return {
    isImmutable,
    immutableRule: immutable === undefined ? 'default' : immutable instanceof RegExp ? String(immutable) : 'function',
    headers: Object.freeze({
      immutable: options.immutableCacheControl ?? DEFAULT_CACHE_CONTROL.immutable,
      html: options.htmlCacheControl ?? DEFAULT_CACHE_CONTROL.html,
      default: options.defaultCacheControl ?? DEFAULT_CACHE_CONTROL.default,
    }),
  }
}

export function cacheClassOf(path: string, policy: ResolvedCachePolicy): CacheClass {
  if (/\.x?html?$/i.test(path)) return 'html'
  // The site dictionaries' names are content-hashed by construction: it must stay fresh as long as
  // deltas against it are kept (RFC 9842 §2.2.2), whatever rule decides the other files.
  if (isSiteDictionary(path)) return 'immutable'
  return policy.isImmutable(path) ? 'immutable' : 'default'
}

/**
 * How long, in seconds, a browser may use a response with this Cache-Control as a compression
 * dictionary: RFC 9842 §2.2.2 uses a stored dictionary only while it is fresh (`max-age`) or within
 * `stale-while-revalidate`; `no-store`, `no-cache` and a missing `max-age` give 0 (no heuristic
 * freshness is counted on).
 */
export function dictionaryLifetime(cacheControl: string): number {
  const directives = new Map(
    cacheControl.split(',').map((part) => {
      const [name = '', value = ''] = part.trim().toLowerCase().split('=')
      return [name.trim(), value.trim().replace(/^"|"$/g, '')] as const
    }),
  )
  if (directives.has('no-store') || directives.has('no-cache')) return 0
  const seconds = (name: string): number => {
    const value = Number.parseInt(directives.get(name) ?? '', 10)
    return Number.isFinite(value) && value > 0 ? value : 0
  }
  const maxAge = seconds('max-age')
  return maxAge === 0 ? 0 : maxAge + seconds('stale-while-revalidate')
}

/**
 * How long deltas against a dictionary may still be served: they are written against the last
 * `versions` deploys, and how far apart deploys are is not known, so as long as the longest class
 * (content-hashed names, a year by default). Every response announced with `Use-As-Dictionary`
 * must stay usable at least this long, which the immutable class does.
 */
export const DELTA_RETENTION_SECONDS = dictionaryLifetime(DEFAULT_CACHE_CONTROL.immutable)
