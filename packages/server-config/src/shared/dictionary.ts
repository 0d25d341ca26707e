// What the generators' dictionary rules (RFC 9842) share: the Use-As-Dictionary value a page
// dictionary is announced with, and escaping for values put inside a server's regex.

import { useAsDictionaryHeader } from '@preencode/core'
import { ASSET_DICTIONARY_MATCH, PAGE_DICTIONARY_MATCH, PAGE_DICTIONARY_MATCH_DEST } from '@preencode/core/internal'

/** `Use-As-Dictionary` of a page dictionary: matches the site's pages, for documents only. */
export const PAGE_USE_AS_DICTIONARY = useAsDictionaryHeader(PAGE_DICTIONARY_MATCH, {
  matchDest: PAGE_DICTIONARY_MATCH_DEST,
})

/** `Use-As-Dictionary` of an asset dictionary: every URL under the site's root, any destination (a versioned asset's own, longer `match` outranks it). */
export const ASSET_USE_AS_DICTIONARY = useAsDictionaryHeader(ASSET_DICTIONARY_MATCH)

/** `value` as a literal inside a PCRE (Apache, nginx). */
export const escapeRegex = (value: string): string => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
