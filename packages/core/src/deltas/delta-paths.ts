/**
 * Where a delta lives, so that a server finds it from the request path and the
 * `Available-Dictionary` value alone, with string operations every server has (no base64-to-hex):
 *
 *   <original>.dict/<base64 of the dictionary's SHA-256><.original extension>.<dcb|dcz>
 *   assets/app-Cx9.js.dict/q1Zk…8Rw=.js.dcb
 *
 * The base64 is the header's value without its colons, validated first
 * (`AVAILABLE_DICTIONARY_PATTERN`: only `A-Z a-z 0-9 + /` and a final `=`). Its `/` characters
 * become directory separators; `.` is not in the alphabet, so no segment can be `..`, and a
 * run of `//` collapses to `/` on every POSIX file system, which is how the file is written
 * here (`deltaPath` returns the collapsed form; S3 keys and the CloudFront Function use it too).
 * The original extension before `.dcb` lets a server type the delta like its original by name.
 */
import type { DictionaryEncoding } from '../codecs/dictionary.js'
import { DICTIONARY_CODECS } from '../codecs/table.js'
import { extensionOf } from '../paths.js'

/** The directory beside each original that holds its deltas. */
export const DELTA_DIRECTORY_SUFFIX = '.dict'

/** A delta's path relative to the root, as written on disk. `dictionaryId` is the 44-character base64. */
export function deltaPath(original: string, dictionaryId: string, encoding: DictionaryEncoding): string {
  return `${original}${DELTA_DIRECTORY_SUFFIX}/${dictionaryId}${extensionOf(original)}${DICTIONARY_CODECS[encoding].extension}`.replace(
    /\/{2,}/g,
    '/',
  )
}

/** The dictionary codings' suffixes, from the table, as one alternation (`dcb|dcz`). */
const DELTA_SUFFIXES = Object.values(DICTIONARY_CODECS)
  .map((codec) => codec.extension.slice(1))
  .join('|')
const DELTA_FILE = new RegExp(
  `^(.+?)\\${DELTA_DIRECTORY_SUFFIX}\\/([A-Za-z0-9+/]+=)(\\.[A-Za-z0-9]+)?\\.(${DELTA_SUFFIXES})$`,
)

/**
 * Whether a path (relative, POSIX) has the shape of a delta; returns its original's path. Used
 * by the scan so deltas are never taken for content, and by stale-delta clean-up.
 */
export function originalOfDeltaPath(path: string): string | undefined {
  const found = DELTA_FILE.exec(path)
  if (!found) return undefined
  const original = found[1]!
  const idLength = found[2]!.replace(/\//g, '').length
  // 44 characters less the slashes that became separators.
  if (idLength > 44 || (found[3] ?? '') !== extensionOf(original)) return undefined
  return original
}
