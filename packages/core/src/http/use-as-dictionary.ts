/**
 * The response side of RFC 9842 §2.1: `Use-As-Dictionary: match="<URLPattern>"` makes a response
 * a dictionary for later requests whose URL matches. For a content-hashed asset the pattern is
 * its own name with the hash replaced by `*`, so the next build's version of the same logical
 * file is requested with this one as its dictionary.
 *
 * The pattern is relative (`index-*.js`): the browser resolves it against the URL of the response
 * (URLPattern with a base URL), so it is same-origin and under the same directory whatever base
 * path the site is deployed under. Only names made of `A-Z a-z 0-9 _ . ~ -` qualify: none of
 * them is special in URLPattern syntax, so no escaping is needed and a server can derive the
 * same header from the URL with one regex (`VERSIONED_ASSET_PATTERN`).
 */

import { HASHED_NAME_RULE } from './hashed-name.js'

/**
 * A versioned asset's base name: stem, separator, content hash (`hashed-name.ts`, the one rule
 * the cache policy uses too), extension. A valid PCRE (nginx, Apache) and JS regex, applied to
 * the base name only.
 */
export const VERSIONED_ASSET_PATTERN = HASHED_NAME_RULE.versionedAsset

const VERSIONED_ASSET = new RegExp(VERSIONED_ASSET_PATTERN)

export interface VersionedAsset {
  /** Directory part of the path, with its trailing `/` (empty at the root). */
  dir: string
  /** The relative URLPattern of this file and its other versions, e.g. `index-*.js`. */
  match: string
  /** `dir + match`: files with the same key are versions of one logical file. */
  key: string
}

/** `assets/index-BxK3_z9a.js` -> `{ dir: 'assets/', match: 'index-*.js', key: 'assets/index-*.js' }`; unversioned names -> undefined. */
export function versionedAsset(path: string): VersionedAsset | undefined {
  const slash = path.lastIndexOf('/')
  const dir = path.slice(0, slash + 1)
  const found = VERSIONED_ASSET.exec(path.slice(slash + 1))
  if (!found) return undefined
  const match = `${found[1]}${found[2]}*.${found[3]}`
  return { dir, match, key: `${dir}${match}` }
}

/** What `Use-As-Dictionary` may carry besides `match` (RFC 9842 §2.1.2-2.1.4). */
export interface UseAsDictionaryFields {
  /** `match-dest`: request destinations (`script`, `style`, `document`…) the dictionary is for. */
  matchDest?: readonly string[]
  /** `id`: echoed back by the browser in `Dictionary-ID`; at most 1024 characters. */
  id?: string
}

/** RFC 8941 sf-string: printable ASCII, `"` and `\` escaped. */
function sfString(value: string, what: string): string {
  if (!/^[\x20-\x7e]*$/.test(value))
    throw new TypeError(`Use-As-Dictionary ${what} must be printable ASCII: ${JSON.stringify(value)}`)
  return `"${value.replace(/[\\"]/g, '\\$&')}"`
}

/** The `Use-As-Dictionary` header value, e.g. `match="index-*.js"` (RFC 9842 §2.1, an sf-dictionary). */
export function useAsDictionaryHeader(match: string, fields: UseAsDictionaryFields = {}): string {
  const parts = [`match=${sfString(match, 'match')}`]
  if (fields.matchDest !== undefined)
    parts.push(`match-dest=(${fields.matchDest.map((d) => sfString(d, 'match-dest')).join(' ')})`)
  if (fields.id !== undefined) {
    if (fields.id.length > 1024) throw new TypeError('Use-As-Dictionary id is limited to 1024 characters')
    parts.push(`id=${sfString(fields.id, 'id')}`)
  }
  return parts.join(', ')
}
