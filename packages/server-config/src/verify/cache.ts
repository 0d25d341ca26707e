// `verifySite({ cache: true })`: what a shared cache in front of the origin can get wrong, found
// by asking in an order that exposes it, each time on a URL no cache has seen yet (a query
// string of its own), so the first answer comes from the origin through the cache and the
// next ones may come from what the cache stored:
//
// - codings: the file's best coding alone first, then gzip alone, then no Accept-Encoding, then
//   each other coding alone, then the first again. An answer in another coding than asked means
//   the cache (or a CDN) rewrote Accept-Encoding ("strips"), unless it is the coding the first
//   request was rightly given: then the cache keys the URL without the coding ("stored for
//   another request");
// - deltas (RFC 9842): the delta with its dictionary, then the file without one, then the delta
//   again: the delta must come when asked for, and never to the request without a dictionary;
// - every answer: the Vary it needs (Accept-Encoding; and Available-Dictionary on a delta) and
//   bytes that decode to the original (or are the delta).
// Each fault is one line of the check that found it.
import { randomUUID } from 'node:crypto'
import { ALL_ENCODINGS, type Encoding, formatOfEncoding, type ManifestDelta, type ManifestFile } from '@preencode/core'
import type { RunBounds } from './bounds.js'
import type { BodyDigest } from './digest.js'
import { type Agents, ask, bodyLimit, type CheckedAnswer, oversizeProblem } from './http.js'

/** One request of a sequence. */
interface CacheStep {
  /** Accept-Encoding sent (undefined: none). */
  acceptEncoding: string | undefined
  /** The coding the answer must have (undefined: the original), or the delta. */
  expect: Encoding | undefined | ManifestDelta
}

/** The requests, in order, on one fresh URL of `file`. */
export interface CacheJob {
  file: ManifestFile
  steps: CacheStep[]
}

/** What a finished step reports (verify.ts turns it into a VerifyCheck). */
export type CacheStepResult = CheckedAnswer

const isDelta = (expect: CacheStep['expect']): expect is ManifestDelta => typeof expect === 'object'

/** The sequences for the files: codings for every file with variants, one per delta. */
export function verifyCacheJobs(files: readonly ManifestFile[]): CacheJob[] {
  const jobs: CacheJob[] = []
  for (const file of files) {
    const has = ALL_ENCODINGS.filter((e) => file.variants.some((v) => v.encoding === e))
    if (has.length === 0) continue
    const [first, ...rest] = has as [Encoding, ...Encoding[]]
    const gzip = rest.filter((e) => e === 'gzip')
    const steps: CacheStep[] = [
      { acceptEncoding: first, expect: first },
      ...gzip.map((e) => ({ acceptEncoding: e, expect: e })),
      { acceptEncoding: undefined, expect: undefined },
      ...rest.filter((e) => e !== 'gzip').map((e) => ({ acceptEncoding: e, expect: e })),
      { acceptEncoding: first, expect: first },
    ]
    jobs.push({ file, steps })
    for (const delta of file.deltas ?? []) {
      jobs.push({
        file,
        steps: [
          { acceptEncoding: delta.encoding, expect: delta },
          { acceptEncoding: first, expect: first },
          { acceptEncoding: delta.encoding, expect: delta },
        ],
      })
    }
  }
  return jobs
}

/** Runs one sequence on a fresh URL (`target` plus a query string of its own). */
export async function runCacheJob(
  job: CacheJob,
  target: URL,
  bounds: RunBounds,
  agents: Agents,
): Promise<CacheStepResult[]> {
  const url = new URL(target)
  url.searchParams.append('preencode-verify', randomUUID())
  const results: CacheStepResult[] = []
  /**
   * The first answer's coding, when it was right: a cache that keys the URL alone stores it and
   * hands it to every later request of the sequence (a front that rewrites Accept-Encoding gets
   * the first one wrong already, so its later wrong answers read as stripping, not storing).
   */
  let stored: string | undefined
  for (const step of job.steps) {
    const delta = isDelta(step.expect) ? step.expect : undefined
    const label = delta ? `${delta.encoding} + Available-Dictionary` : step.acceptEncoding
    const result: CacheStepResult = {
      url: url.href,
      acceptEncoding: label,
      status: 0,
      contentEncoding: undefined,
      contentType: undefined,
      vary: undefined,
      problems: [],
    }
    results.push(result)
    const size = delta?.size ?? job.file.size
    const limit = bodyLimit(size)
    try {
      const answer = await ask(url, step.acceptEncoding, delta, { ...bounds, maxBodyBytes: limit }, agents)
      const { digest, seen } = answer
      const encoding = seen.contentEncoding?.trim().toLowerCase() || undefined
      Object.assign(result, seen, { contentEncoding: encoding })
      if (result.status !== 200) {
        result.problems.push(`status ${result.status}, expected 200`)
        continue
      }
      const got = encoding === undefined ? undefined : (formatOfEncoding(encoding)?.encoding ?? encoding)
      const coding = judgeCoding(step, label, got, stored)
      if (coding) result.problems.push(coding)
      else if (results.length === 1) stored = got
      const vary = new Set(result.vary?.split(',').map((t) => t.trim().toLowerCase()))
      const needed = delta && got === delta.encoding ? ['Accept-Encoding', 'Available-Dictionary'] : ['Accept-Encoding']
      const missing = needed.filter((name) => !vary.has(name.toLowerCase()))
      if (missing.length > 0)
        result.problems.push(
          `no Vary: ${missing.join(', ')}: a cache or browser may hand this ${got ?? 'uncompressed'} answer to any request`,
        )
      const bytes = oversizeProblem(answer, limit, size) ?? bodyProblem(job.file, delta, got, digest)
      if (bytes) result.problems.push(bytes)
    } catch (error) {
      bounds.check(error, url.href, label)
      result.problems.push(`request failed: ${(error as Error).message}`)
    }
  }
  return results
}

/** The coding problem of one answer, or undefined. */
function judgeCoding(
  step: CacheStep,
  label: string | undefined,
  got: string | undefined,
  stored: string | undefined,
): string | undefined {
  const expected = isDelta(step.expect) ? step.expect.encoding : step.expect
  if (got === expected) return undefined
  const asked = label === undefined ? 'no Accept-Encoding' : `"${label}"`
  if (got !== undefined && got === stored)
    return `coding stored for another request: asked with ${asked}, got the ${got} the first request was given (the cache key lacks ${isDelta(step.expect) || got === 'dcb' || got === 'dcz' ? 'Available-Dictionary' : 'the coding'})`
  if (isDelta(step.expect))
    return `delta not served: asked for ${expected} with its dictionary (${step.expect.path} exists), got ${got ?? 'no coding'}`
  if (expected !== undefined)
    return `strips ${expected}: asked for ${expected} only, got ${got ?? 'no coding'} although the site has the ${expected} variant (Accept-Encoding rewritten on the way?)`
  return `Content-Encoding ${got} sent to a request that accepts no coding`
}

function bodyProblem(
  file: ManifestFile,
  delta: ManifestDelta | undefined,
  got: string | undefined,
  body: BodyDigest,
): string | undefined {
  if (delta && got === delta.encoding) {
    return body.sha256 === delta.sha256 ? undefined : `the body (${body.bytes} bytes) is not the delta ${delta.path}`
  }
  if (got === 'dcb' || got === 'dcz') return undefined // a delta where none was asked: reported above
  const decoded = body.decoded
  if ('error' in decoded) return `body does not decode as ${got}: ${decoded.error}`
  return decoded.sha256 === file.sha256
    ? undefined
    : `decoded body (${decoded.bytes} bytes) differs from the original (${file.size} bytes)`
}
