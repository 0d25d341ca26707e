// `verifySite`: fetches a deployed site the way browsers do and checks what came back against the
// manifest: status, Content-Encoding and Vary as the serving specification answers (`http/spec.ts`,
// which every preencode server keeps), Content-Type and the decoded bytes. Raw node:http(s), not
// fetch, because fetch decodes bodies and hides what the server actually sent.
import { Agent as HttpAgent, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { join } from 'node:path'
import {
  ALL_ENCODINGS,
  type Encoding,
  formatOfEncoding,
  MANIFEST_FILENAME,
  type Manifest,
  type ManifestDelta,
  type ManifestFile,
  userError,
} from '@preencode/core'
import { refuseManifestOutsideSite, runPool } from '@preencode/core/internal'
import { isDotPath } from '../http/dotfiles.js'
import { servedFileOf } from '../http/served-file.js'
import { specify, targetOf } from '../http/spec.js'
import { type RunBounds, runBounds } from './bounds.js'
import { runCacheJob, verifyCacheJobs } from './cache.js'
import { judgeDelta } from './deltas.js'
import type { BodyDigest } from './digest.js'
import { type Agents, ask, bodyLimit, type CheckedAnswer, headerValues, oversizeProblem } from './http.js'
import { checkVerifySettings, DEFAULT_DEADLINE, DEFAULT_TIMEOUT, KEY_LABEL, type VerifySettings } from './settings.js'

/** One Accept-Encoding probe: the header sent (undefined: none) and what each available encoding means for it. */
export interface EncodingProbe {
  /** The Accept-Encoding header value, or undefined to send none. */
  header: string | undefined
  /** Encodings this header accepts, in the order a server should prefer them. */
  accepts: Encoding[]
}

/** The probes run per URL by default. */
export const DEFAULT_PROBES: readonly EncodingProbe[] = Object.freeze([
  ...ALL_ENCODINGS.map((encoding): EncodingProbe => ({ header: encoding, accepts: [encoding] })),
  { header: 'identity', accepts: [] },
  { header: undefined, accepts: [] },
  { header: 'br;q=0, gzip', accepts: ['gzip'] },
])

/** `verifySite()`'s options: the verify settings (also the config file's and the CLI's) and two of code's own. */
export interface VerifyOptions extends VerifySettings {
  /** @default DEFAULT_PROBES */
  probes?: readonly EncodingProbe[]
  /**
   * Also check what a shared cache in front can get wrong (cache.ts): codings it strips,
   * a coding stored for another request, deltas not served, a missing Vary. Asks in a fixed
   * order on URLs of its own (a `preencode-verify` query string), so a cache that keys on the
   * query string starts empty for them.
   * @default false
   */
  cache?: boolean
}

/** One request `verifySite()` made, its answer and the problems found with it. */
export interface VerifyCheck extends CheckedAnswer {
  /** The manifest path of the file. */
  path: string
}

/** What `verifySite()` returns: every check, the failed ones, how long the run took. */
export interface VerifyResult {
  url: string
  files: number
  checks: VerifyCheck[]
  failures: VerifyCheck[]
  durationMs: number
}

/** Picks `limit` files: HTML first (entry points are what users hit), then evenly spread over the rest. */
function sampleFiles(files: readonly ManifestFile[], limit: number | undefined): ManifestFile[] {
  if (limit === undefined || limit >= files.length) return [...files]
  const html = files.filter((f) => f.cacheClass === 'html')
  const rest = files.filter((f) => f.cacheClass !== 'html')
  const picked = html.slice(0, limit)
  const room = limit - picked.length
  for (let i = 0; i < room && rest.length > 0; i++) picked.push(rest[Math.floor((i * rest.length) / room)]!)
  return picked
}

/** URL paths a file answers on: its own path, and `dir/` for `dir/index.html`. */
function urlPathsOf(path: string): string[] {
  const encoded = path.split('/').map(encodeURIComponent).join('/')
  const paths = [`/${encoded}`]
  if (path === 'index.html' || path.endsWith('/index.html')) paths.push(`/${encoded.slice(0, -'index.html'.length)}`)
  return paths
}

const normalizeType = (value: string): string => value.toLowerCase().replace(/\s+/g, '')

/** The answer the serving specification gives to `probe` for `file`: what the server must send. */
function expectedAnswer(
  file: ManifestFile,
  probe: EncodingProbe,
): { status: number; encoding?: string; vary?: string } {
  if (targetOf('GET', `/${file.path}`, 'index.html').kind === 'hidden') return { status: 404 }
  const headers = probe.header === undefined ? {} : { 'accept-encoding': probe.header }
  const answer = specify({ method: 'GET', headers }, { ...servedFileOf(file), deltas: undefined })
  if (!answer) return { status: 404 }
  return { status: answer.status, encoding: answer.headers['Content-Encoding'], vary: answer.headers.Vary }
}

/** What must hold for one response (the specification's answer, `http/spec.ts`); returns the problems found. */
function judge(file: ManifestFile, probe: EncodingProbe, response: IncomingMessage, body: BodyDigest): string[] {
  const problems: string[] = []
  const spec = expectedAnswer(file, probe)
  // A dotfile (the manifest may list `.env`, `.well-known/…/.x`) must not be served at all.
  if (spec.status === 404)
    return response.statusCode === 404
      ? []
      : [`status ${response.statusCode ?? '?'}: a dotfile or dot-folder is served (every generated config answers 404)`]
  if (response.statusCode !== spec.status) return [`status ${response.statusCode ?? '?'}, expected ${spec.status}`]
  const available = new Set(file.variants.map((v) => v.encoding))
  const encodings = headerValues(response, 'content-encoding')
    .join(',')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean)
  const expected = spec.encoding
  if (encodings.length > 1) problems.push(`Content-Encoding "${encodings.join(', ')}" has several codings`)
  // An alias (`x-gzip`) names the same coding as its token.
  const got = encodings[0] === undefined ? undefined : (formatOfEncoding(encodings[0])?.encoding ?? encodings[0])
  if (got === undefined) {
    if (expected) problems.push(`no Content-Encoding, expected ${expected} (the variant exists and was accepted)`)
  } else if (!(probe.accepts as readonly string[]).includes(got)) {
    problems.push(`Content-Encoding ${got} was not accepted by "${probe.header ?? '(none)'}"`)
  } else if (!(available as ReadonlySet<string>).has(got)) {
    problems.push(`Content-Encoding ${got} but the manifest has no ${got} variant (compressed on the fly?)`)
  }
  const type = response.headers['content-type']
  if (!type) problems.push(`no Content-Type, expected ${file.contentType}`)
  else if (normalizeType(type) !== normalizeType(file.contentType))
    problems.push(`Content-Type ${type}, expected ${file.contentType}`)
  if (spec.vary !== undefined) {
    const tokens = headerValues(response, 'vary')
      .join(',')
      .split(',')
      .map((t) => t.trim().toLowerCase())
    const count = tokens.filter((t) => t === 'accept-encoding').length
    if (count !== 1)
      problems.push(count === 0 ? 'Vary lacks Accept-Encoding' : `Vary names Accept-Encoding ${count} times`)
  }
  if (problems.some((p) => p.startsWith('Content-Encoding') && p.includes('several'))) return problems
  const decoded = body.decoded
  if ('error' in decoded) problems.push(`body does not decode as ${got}: ${decoded.error}`)
  else if (decoded.sha256 !== file.sha256)
    problems.push(`decoded body (${decoded.bytes} bytes) differs from the original (${file.size} bytes)`)
  return problems
}

/** One request of the run: a file, the URL path it is asked on, the probe, and the delta asked for. */
interface ProbeJob {
  file: ManifestFile
  path: string
  probe: EncodingProbe
  delta?: ManifestDelta
}

/** The site's URL, checked: http or https. */
function siteBase(url: string): URL {
  let base: URL
  try {
    base = new URL(url)
  } catch (cause) {
    throw userError('verify', `"${url}" is not a URL; expected e.g. https://example.com/ or http://127.0.0.1:8080/.`, {
      cause,
    })
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw userError('verify', `"${url}" must be http:// or https://.`)
  return base
}

/** Every probe on every URL path of each file, then every delta of the files served (RFC 9842, deltas.ts). */
function probeJobs(files: readonly ManifestFile[], served: readonly ManifestFile[], probes: readonly EncodingProbe[]) {
  const jobs: ProbeJob[] = files.flatMap((file) =>
    urlPathsOf(file.path).flatMap((path) => probes.map((probe) => ({ file, path, probe }))),
  )
  // Every delta, asked for as a browser holding its dictionary would.
  for (const file of served)
    for (const delta of file.deltas ?? [])
      jobs.push({ file, path: urlPathsOf(file.path)[0]!, probe: { header: delta.encoding, accepts: [] }, delta })
  return jobs
}

/** Asks `target` for one job and judges the answer. */
async function checkJob(
  { file, probe, delta }: ProbeJob,
  target: URL,
  bounds: RunBounds,
  agents: Agents,
): Promise<VerifyCheck> {
  const check: VerifyCheck = {
    path: file.path,
    url: target.href,
    acceptEncoding: probe.header,
    status: 0,
    contentEncoding: undefined,
    contentType: undefined,
    vary: undefined,
    problems: [],
  }
  const size = delta?.size ?? file.size
  const limit = bodyLimit(size)
  try {
    const answer = await ask(target, probe.header, delta, { ...bounds, maxBodyBytes: limit }, agents)
    const { response, digest, seen } = answer
    Object.assign(check, seen)
    const oversize = oversizeProblem(answer, limit, size)
    if (oversize) check.problems = [oversize]
    else
      check.problems = delta
        ? judgeDelta(file, delta, response, digest, (name) => headerValues(response, name))
        : judge(file, probe, response, digest)
  } catch (error) {
    bounds.check(error, target.href, probe.header)
    check.problems = [`request failed: ${(error as Error).message}`]
  }
  return check
}

/**
 * Fetches every manifest file (or a sample) of the site deployed at `url` with each probe and
 * checks the answers. `root` is the local site the manifest describes (named in errors). A
 * manifest that names a path out of the site is refused before any request (core's rule,
 * `pathsOutsideSite`). `label`
 * names a setting as the user wrote it (the CLI: a flag or the config file's key); by default its key.
 */
export async function verifySite(
  url: string,
  manifest: Manifest,
  root: string,
  options: VerifyOptions = {},
  label = KEY_LABEL,
): Promise<VerifyResult> {
  const started = performance.now()
  const base = siteBase(url)
  const prefix = base.pathname.replace(/\/+$/, '')
  checkVerifySettings(options, label)
  // No request for a path the manifest names out of the site (`/site/../other/`).
  refuseManifestOutsideSite(manifest, join(root, MANIFEST_FILENAME), 'verify')
  const files = sampleFiles(manifest.files, options.limit)
  if (files.length === 0) throw userError('verify', `The manifest of ${root} lists no files.`, { code: 'BAD_INPUT' })
  const served = files.filter((file) => !isDotPath(`/${file.path}`))
  const jobs = probeJobs(files, served, options.probes ?? DEFAULT_PROBES)
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }
  const checks: VerifyCheck[] = []
  /** In the order each sequence asked (the order is what they test). */
  const cacheChecks: VerifyCheck[] = []
  const timeoutMs = (options.timeout ?? DEFAULT_TIMEOUT) * 1000
  const bounds = runBounds(base.href, timeoutMs, (options.deadline ?? DEFAULT_DEADLINE) * 1000, label)
  try {
    await runPool(jobs, options.concurrency ?? 8, async (job) => {
      const target = new URL(`${prefix}${job.path}${base.search}`, base)
      checks.push(await checkJob(job, target, bounds, agents))
    })
    if (options.cache === true) {
      // The sequences run one request at a time each (their order is the test), several at once.
      await runPool(verifyCacheJobs(served), options.concurrency ?? 8, async (job) => {
        const target = new URL(`${prefix}${urlPathsOf(job.file.path)[0]!}${base.search}`, base)
        for (const step of await runCacheJob(job, target, bounds, agents))
          cacheChecks.push({ path: job.file.path, ...step })
      })
    }
  } finally {
    bounds.close()
    agents.http.destroy()
    agents.https.destroy()
  }
  checks.sort((a, b) =>
    a.url < b.url ? -1 : a.url > b.url ? 1 : String(a.acceptEncoding) < String(b.acceptEncoding) ? -1 : 1,
  )
  cacheChecks.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
  checks.push(...cacheChecks)
  return {
    url,
    files: files.length,
    checks,
    failures: checks.filter((c) => c.problems.length > 0),
    durationMs: Math.round(performance.now() - started),
  }
}
