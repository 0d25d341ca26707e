// `verifySite` for RFC 9842 deltas: each delta the manifest lists is requested the way a browser
// that holds its dictionary asks (`Available-Dictionary: :<id>:`, `Accept-Encoding: dcb|dcz`);
// the answer must be exactly that delta (its sha256), with the coding and the `Vary` the serving
// specification gives (`http/spec.ts`: both headers), and the original's Content-Type. The dictionary itself (a previous deploy's file) need
// not be at hand: the bytes are compared with the delta the manifest describes, and their
// header must name the dictionary asked for.
import type { IncomingMessage } from 'node:http'
import type { ManifestDelta, ManifestFile } from '@preencode/core'
import { availableDictionaryValue, dictionaryStreamHeader } from '@preencode/core/internal'
import { servedFileOf } from '../http/served-file.js'
import { specify } from '../http/spec.js'
import type { BodyDigest } from './digest.js'

/** The request headers that ask for `delta`. */
export function deltaRequestHeaders(delta: ManifestDelta): Record<string, string> {
  return {
    'accept-encoding': delta.encoding,
    'available-dictionary': availableDictionaryValue(Buffer.from(delta.dictionary, 'base64')),
  }
}

const normalizeType = (value: string): string => value.toLowerCase().replace(/\s+/g, '')

/** The coding and Vary the serving specification answers `delta`'s request with. */
function expectedOf(file: ManifestFile, delta: ManifestDelta): { encoding: string; vary: string[] } {
  const answer = specify({ method: 'GET', headers: deltaRequestHeaders(delta) }, servedFileOf(file))
  const vary = (answer?.headers.Vary ?? '').split(',').map((t) => t.trim().toLowerCase())
  return { encoding: answer?.headers['Content-Encoding'] ?? 'identity', vary }
}

/** What must hold for the answer to a delta request; returns the problems found. */
export function judgeDelta(
  file: ManifestFile,
  delta: ManifestDelta,
  response: IncomingMessage,
  body: BodyDigest,
  headerValues: (name: string) => string[],
): string[] {
  if (response.statusCode !== 200) return [`status ${response.statusCode ?? '?'}, expected 200`]
  const problems: string[] = []
  const expected = expectedOf(file, delta)
  const encoding = headerValues('content-encoding').join(',').trim().toLowerCase()
  if (encoding !== expected.encoding)
    problems.push(
      `Content-Encoding ${encoding || '(none)'}, expected ${expected.encoding} (the delta ${delta.path} exists and was asked for)`,
    )
  const type = response.headers['content-type']
  if (!type || normalizeType(type) !== normalizeType(file.contentType))
    problems.push(`Content-Type ${type ?? '(none)'}, expected ${file.contentType}`)
  const vary = headerValues('vary')
    .join(',')
    .split(',')
    .map((t) => t.trim().toLowerCase())
  for (const name of expected.vary) if (!vary.includes(name)) problems.push(`Vary lacks ${name}`)
  if (encoding === delta.encoding) {
    const header = dictionaryStreamHeader(delta.encoding, Buffer.from(delta.dictionary, 'base64'))
    if (!body.head.subarray(0, header.byteLength).equals(header))
      problems.push(`the ${delta.encoding} body does not start with the header naming dictionary ${delta.dictionary}`)
    else if (body.sha256 !== delta.sha256)
      problems.push(`the body (${body.bytes} bytes) is not the delta ${delta.path} (${delta.size} bytes)`)
  }
  return problems
}
