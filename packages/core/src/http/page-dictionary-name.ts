/**
 * The names of the site's own dictionaries, both at the site root and content-hashed by
 * construction, so their cache class is `immutable` whatever rule decides the other files
 * (`cache-policy.ts`):
 * - the page dictionary (`page-dictionary.ts`): `preencode-dictionary-<first 16 hex digits of its sha256>.txt`;
 * - the asset dictionary (`asset-dictionary.ts`): `preencode-assets-<first 16 hex digits of its sha256>.txt`.
 */
import { sha256Hex } from '../hash.js'

/** The page dictionary's file name, as a regex source (JS, PCRE and RE2 alike); it lives at the site root. */
export const PAGE_DICTIONARY_NAME_PATTERN = 'preencode-dictionary-[0-9a-f]{16}\\.txt'
/** The asset dictionary's file name, as a regex source (JS, PCRE and RE2 alike); it lives at the site root. */
export const ASSET_DICTIONARY_NAME_PATTERN = 'preencode-assets-[0-9a-f]{16}\\.txt'

const PAGE_DICTIONARY = new RegExp(`^${PAGE_DICTIONARY_NAME_PATTERN}$`)
const ASSET_DICTIONARY = new RegExp(`^${ASSET_DICTIONARY_NAME_PATTERN}$`)

/** `preencode-dictionary-<first 16 hex digits of its sha256>.txt`. */
export function pageDictionaryName(dictionary: Uint8Array): string {
  return `preencode-dictionary-${sha256Hex(dictionary).slice(0, 16)}.txt`
}

/** `preencode-assets-<first 16 hex digits of its sha256>.txt`. */
export function assetDictionaryName(dictionary: Uint8Array): string {
  return `preencode-assets-${sha256Hex(dictionary).slice(0, 16)}.txt`
}

/** Whether `relativePath` (POSIX) is a page dictionary (this build's or an earlier one). */
export function isPageDictionary(relativePath: string): boolean {
  return PAGE_DICTIONARY.test(relativePath)
}

/** Whether `relativePath` (POSIX) is an asset dictionary (this build's or an earlier one). */
export function isAssetDictionary(relativePath: string): boolean {
  return ASSET_DICTIONARY.test(relativePath)
}

/** Whether `relativePath` is one of the site's own dictionaries (page or asset): content-hashed, at the root. */
export function isSiteDictionary(relativePath: string): boolean {
  return isPageDictionary(relativePath) || isAssetDictionary(relativePath)
}
