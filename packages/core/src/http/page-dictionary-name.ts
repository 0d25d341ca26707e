/**
 * The page dictionary's name (see `page-dictionary.ts`): `preencode-dictionary-<first 16 hex
 * digits of its sha256>.txt` at the site root. Content-hashed by construction, so its cache class
 * is `immutable` whatever rule decides the other files (`cache-policy.ts`).
 */
import { sha256Hex } from '../hash.js'

/** The page dictionary's file name, as a regex source (JS, PCRE and RE2 alike); it lives at the site root. */
export const PAGE_DICTIONARY_NAME_PATTERN = 'preencode-dictionary-[0-9a-f]{16}\\.txt'

const PAGE_DICTIONARY = new RegExp(`^${PAGE_DICTIONARY_NAME_PATTERN}$`)

/** `preencode-dictionary-<first 16 hex digits of its sha256>.txt`. */
export function pageDictionaryName(dictionary: Uint8Array): string {
  return `preencode-dictionary-${sha256Hex(dictionary).slice(0, 16)}.txt`
}

/** Whether `relativePath` (POSIX) is a page dictionary (this build's or an earlier one). */
export function isPageDictionary(relativePath: string): boolean {
  return PAGE_DICTIONARY.test(relativePath)
}
