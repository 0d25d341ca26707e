/**
 * The request side of Compression Dictionary Transport (RFC 9842 §2.2): a browser that holds a
 * dictionary for the requested URL sends `Available-Dictionary: :<base64 SHA-256>:`, an sf-binary
 * item (RFC 8941 §3.3.5). The value is chosen by the client, so it is attacker-controlled: it
 * must be proven to be exactly one 32-byte hash before any part of it becomes part of a path.
 */
import { createHash } from 'node:crypto'

/**
 * The only accepted form, anchored: `:` + 43 base64 characters + `=` + `:`. 32 bytes encode to
 * 43 characters and one `=`; the 43rd carries 2 unused bits, which canonical base64 leaves at
 * zero, so only 16 letters can stand there. No parameters, no list, no whitespace inside.
 * Server generators emit this same pattern (it is also a valid PCRE and JS regex).
 */
export const AVAILABLE_DICTIONARY_PATTERN = '^:([A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=):$'

const AVAILABLE_DICTIONARY = new RegExp(AVAILABLE_DICTIONARY_PATTERN)

/** Longest value worth looking at; anything longer is rejected before the regex runs. */
const MAX_HEADER_LENGTH = 64

/**
 * Validates an `Available-Dictionary` request header and returns the 44-character base64 of
 * the SHA-256 it names, or `undefined` for anything else: missing, empty, several values (an
 * array, or a comma-joined repeat), parameters, wrong length, non-canonical base64, `..`, `%2f`,
 * NUL. Only optional whitespace around the item is allowed (RFC 8941 §4.2 strips it).
 */
export function parseAvailableDictionary(value: string | readonly string[] | undefined): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_HEADER_LENGTH) return undefined
  const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '')
  return AVAILABLE_DICTIONARY.exec(trimmed)?.[1]
}

/** The sf-binary a browser sends for a dictionary with this SHA-256 (lowercase hex or bytes). */
export function availableDictionaryValue(sha256: string | Uint8Array): string {
  return `:${dictionaryId(sha256)}:`
}

/** The base64 of a SHA-256 given as lowercase hex or bytes: how deltas name their dictionary. */
export function dictionaryId(sha256: string | Uint8Array): string {
  const bytes = typeof sha256 === 'string' ? Buffer.from(sha256, 'hex') : Buffer.from(sha256)
  if (bytes.byteLength !== 32)
    throw new TypeError(`dictionaryId: expected a 32-byte SHA-256, got ${bytes.byteLength} bytes`)
  return bytes.toString('base64')
}

/** SHA-256 of a dictionary's bytes (what the browser hashes: the decoded response body). */
export function sha256Of(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest()
}
