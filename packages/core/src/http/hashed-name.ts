/**
 * What counts as a content-hashed ("versioned") file name: ONE rule, written here once per regex
 * dialect, read by every place that decides it (core's cache policy and delta writer,
 * `Use-As-Dictionary`, the server configs, the VCL, nginx's dictionary maps, the CloudFront
 * Function and the Worker). Two rules that disagreed made a rerun drop every asset delta when one
 * name had no digit and fewer than two capitals (issue 30 item 2).
 *
 * The rule: a separator (`- . ~ _`), then the hash, then the extension. The hash is 16-64 hex
 * digits (webpack, Hugo); 9-15 hex digits holding at least one digit 0-9 (Rsbuild, Rspack and
 * webpack's `[contenthash:10]`, e.g. `lib-react.338ea7d359.js`, issue 34 item 4); or 8 base64url
 * characters (Vite, Rollup, Astro; an 8-hex `[contenthash:8]` too) holding a digit or two
 * capitals: `app-settings.js` or `Page-Header.js` are names, not hashes, and so is a word made of
 * the letters a-f alone (`feedface`, `deadbeefcafe`). The digit costs little: a random 10-hex hash
 * has none with probability (6/16)^10, about 1 in 18,000. About 1.1% of random 8-character
 * base64url hashes have neither and count as plain names (an hour of caching, no deltas): the
 * price of never caching `app-settings.js` for a year.
 *
 * `test/http/hashed-name.test.ts` runs every dialect through its engine (perl for PCRE, Go's regexp for
 * RE2) on one table of names and checks they agree with `looksContentHashed`.
 */

/** Extensions of versioned assets that get `Use-As-Dictionary` and deltas (text and wasm bundles). */
const VERSIONED_ASSET_EXTENSIONS: readonly string[] = Object.freeze(['js', 'mjs', 'css', 'wasm', 'json', 'svg'])

/** A versioned asset's stem (what stays from one version to the next), lazy: the first split that leaves a hash wins. */
const VERSIONED_STEM = '[A-Za-z0-9_.~-]*?[A-Za-z0-9_~]'

/** The separator before the hash. */
const HASH_SEPARATOR = '[-.~_]'

/**
 * The hash, for JavaScript (core, the Worker, the CloudFront Function), PCRE (nginx, Apache) and
 * PCRE2 (Varnish): a lookahead checks the digit or the two capitals. It cannot read past the
 * 8 characters: the class it scans stops at the `.` that must follow them.
 */
const HASH_TOKEN =
  '(?:[a-f0-9]{16,64}|(?=[a-f]*[0-9])[a-f0-9]{9,15}|(?=[A-Za-z_-]*[0-9]|(?:[a-z0-9_-]*[A-Z]){2})[A-Za-z0-9_-]{8})'

/** The same hash for RE2 (Caddy), which has no lookaround: every place of the (first) digit or the two capitals spelled out. */
export const HASH_TOKEN_RE2 = spelledOutToken()

/** A content-hashed name at the end of a path (JavaScript, PCRE, PCRE2). */
export const HASHED_NAME = `${HASH_SEPARATOR}${HASH_TOKEN}\\.[A-Za-z0-9]+$`

/** A content-hashed name at the end of a path (RE2). */
export const HASHED_NAME_RE2 = `${HASH_SEPARATOR}${HASH_TOKEN_RE2}\\.[A-Za-z0-9]+$`

/**
 * A versioned asset's base name: stem, separator, hash, extension, with the stem, separator and
 * extension captured (groups 1-3): the file's other versions are `stem + separator + * + .ext`.
 * Only names made of `A-Z a-z 0-9 _ . ~ -` qualify (none special in URLPattern syntax). `token`
 * is the dialect's hash (HASH_TOKEN by default).
 */
export function versionedAssetPattern(token: string = HASH_TOKEN): string {
  return `^(${VERSIONED_STEM})(${HASH_SEPARATOR})${token}\\.(${VERSIONED_ASSET_EXTENSIONS.join('|')})$`
}

/**
 * The rule in one name for the packages that spell it into another program's regex syntax (the
 * server configs): its pieces and whole patterns. `name`: a content-hashed name at the end of a
 * path (JavaScript, PCRE, PCRE2); `nameRe2`: the same for RE2; `versionedAsset`: a versioned
 * asset's base name with stem, separator and extension captured (`versionedAssetPattern()`).
 */
export const HASHED_NAME_RULE = Object.freeze({
  separator: HASH_SEPARATOR,
  token: HASH_TOKEN,
  stem: VERSIONED_STEM,
  extensions: VERSIONED_ASSET_EXTENSIONS,
  name: HASHED_NAME,
  nameRe2: HASHED_NAME_RE2,
  versionedAsset: versionedAssetPattern(),
})

const HASHED = new RegExp(HASHED_NAME)

/** The default rule of the cache policy: whether `path`'s file name is content-hashed. */
export function looksContentHashed(path: string): boolean {
  return HASHED.test(path.slice(path.lastIndexOf('/') + 1))
}

function spelledOutToken(): string {
  const char = '[A-Za-z0-9_-]'
  const run = (n: number): string => (n === 0 ? '' : n === 1 ? char : `${char}{${n}}`)
  const tokens: string[] = []
  for (let i = 0; i < 8; i++) tokens.push(`${run(i)}[0-9]${run(7 - i)}`)
  for (let i = 0; i < 8; i++) {
    for (let j = i + 1; j < 8; j++) tokens.push(`${run(i)}[A-Z]${run(j - i - 1)}[A-Z]${run(7 - j)}`)
  }
  // 9-15 hex digits with a digit: the letters before the first digit, the digit, the rest.
  const hex: string[] = []
  for (let i = 0; i < 15; i++) hex.push(`${i === 0 ? '' : `[a-f]{${i}}`}[0-9][a-f0-9]{${Math.max(0, 8 - i)},${14 - i}}`)
  return `(?:[a-f0-9]{16,64}|${hex.join('|')}|${tokens.join('|')})`
}
