// The request matrix a shared cache must get right, and the judge of one answer: what the
// generated VCL forwards (the first acceptable coding of the site, br > zstd > gzip) must come
// back, acceptable to the client that asked, with the original's type, one Vary and bytes that
// decode to the original (or, for a Range, the variant's bytes at that range).
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Manifest, ManifestFile } from '@preencode/core'
import { type Encoding, negotiate } from '@preencode/server-config'
import { isAcceptable, parseAcceptEncoding } from '../../packages/server-config/src/http/negotiate.js'
import { resolveServingPolicy } from '../../packages/server-config/src/shared/policy.js'
import { ACCEPT_ENCODING_SPELLINGS } from '../harness/accept-encodings.ts'
import { decode, get } from '../harness/http.ts'
import { DOTFILES } from '../harness/site.ts'

/**
 * The files the matrix asks for: the manifest's, less the dotfiles the site holds for the
 * serving suite, which no server sends (404, checked through the cache on their own).
 */
export function servedFiles(manifest: Manifest): ManifestFile[] {
  return manifest.files.filter((file) => !Object.hasOwn(DOTFILES, file.path))
}

export interface MatrixCase {
  name: string
  headers: Record<string, string>
  /** `bytes=a-b` on the answer's representation. */
  range?: [number, number]
}

const ae = (value: string): MatrixCase => ({ name: `AE "${value}"`, headers: { 'accept-encoding': value } })

/** Browsers, tools, odd spellings and refusals (the serving suite's table), and a Range. */
export const MATRIX: MatrixCase[] = [
  { name: 'br+zstd (Chromium)', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } },
  { name: 'gzip only', headers: { 'accept-encoding': 'gzip' } },
  { name: 'identity (no header)', headers: {} },
  { name: 'br;q=0', headers: { 'accept-encoding': 'gzip, deflate, br;q=0, zstd' } },
  { name: '*;q=0', headers: { 'accept-encoding': '*;q=0' } },
  {
    name: 'Range on a variant',
    headers: { 'accept-encoding': 'gzip, deflate, br, zstd', range: 'bytes=10-99' },
    range: [10, 99],
  },
  ...[...ACCEPT_ENCODING_SPELLINGS, 'gzip, deflate, br'].map(ae),
]

/**
 * The coding the generated VCL ends with: the first acceptable coding of the site (br, zstd,
 * gzip) that the file has (a miss restarts with the next one), else the original.
 */
export function expectedCoding(
  manifest: Manifest,
  file: ManifestFile,
  header: string | undefined,
): Encoding | undefined {
  const has = resolveServingPolicy(manifest).codings.filter((e) => file.variants.some((v) => v.encoding === e))
  const coding = negotiate(header, has)
  return coding === null || coding === 'identity' ? undefined : coding
}

/** URL paths of a file: its path, and `dir/` for an index.html. */
export function urlsOf(path: string): string[] {
  const encoded = `/${path.split('/').map(encodeURIComponent).join('/')}`
  return encoded.endsWith('/index.html') ? [encoded, encoded.slice(0, -'index.html'.length)] : [encoded]
}

/** Requests `url` with `c` and returns the problems of the answer (empty: right). */
export async function judge(
  base: string,
  root: string,
  manifest: Manifest,
  file: ManifestFile,
  url: string,
  c: MatrixCase,
): Promise<string[]> {
  const res = await get(`${base}${url}`, c.headers)
  const header = c.headers['accept-encoding']
  const expected = expectedCoding(manifest, file, header)
  const got = res.one('content-encoding')
  const problems: string[] = []
  if (got !== expected) problems.push(`Content-Encoding ${got ?? '(none)'}, expected ${expected ?? '(none)'}`)
  if (got && header !== undefined && !isAcceptable(parseAcceptEncoding(header), got as Encoding))
    problems.push(`${got} is not acceptable to "${header}"`)
  if (res.one('content-type') !== file.contentType) problems.push(`Content-Type ${res.one('content-type')}`)
  if (file.variants.length > 0) {
    const vary = (res.headers.get('vary') ?? [])
      .join(',')
      .split(',')
      .map((t) => t.trim().toLowerCase())
    if (vary.filter((t) => t === 'accept-encoding').length !== 1) problems.push(`Vary "${vary.join(',')}"`)
  }
  if (c.range) {
    const bytes = await readFile(join(root, got ? file.variants.find((v) => v.encoding === got)!.path : file.path))
    const [from, to] = c.range
    const last = Math.min(to, bytes.length - 1)
    if (res.status !== 206) problems.push(`status ${res.status}, expected 206`)
    else if (res.one('content-range') !== `bytes ${from}-${last}/${bytes.length}`)
      problems.push(`Content-Range ${res.one('content-range')}, expected bytes ${from}-${last}/${bytes.length}`)
    else if (!res.body.equals(bytes.subarray(from, last + 1)))
      problems.push('the range is not those bytes of the representation')
    return problems
  }
  if (res.status !== 200) return [...problems, `status ${res.status}`]
  if (res.one('content-length') === undefined) problems.push('no Content-Length')
  try {
    const body = decode(res.body, got)
    if (createHash('sha256').update(body).digest('hex') !== file.sha256)
      problems.push('decoded body differs from the original')
  } catch (error) {
    problems.push(`body does not decode: ${(error as Error).message}`)
  }
  return problems
}
