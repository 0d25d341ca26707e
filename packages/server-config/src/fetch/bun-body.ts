/**
 * The body of an answer on Bun: a `Bun.file`, which Bun.serve sends from native code (sendfile
 * for a large file: the kernel copies it to the socket) — no byte passes through JavaScript and
 * nothing is held in memory for a slow reader (issue 35: 30 slow readers of a 60 MB file took 3.57 GB when bodies were read
 * whole). Bun takes Content-Length from the file it sends, so it is kept.
 *
 * The trade-off, stated in docs/servers/javascript.md: the handler does not open the file (on
 * Bun a file of the site is described by one `stat`, `site/file-access.ts`); Bun opens it, by
 * the path that `stat` described (checked inside the site, `site/site-root.ts`), when it starts
 * to send. So the one-handle guarantee becomes "one file per body": the body is never a mix of
 * two files (Bun sends from the one descriptor it opened, its length from that descriptor), but
 * a rebuild that replaces the file in the microseconds between the handler's `stat` and Bun's
 * open can pair the headers of the old file (ETag, Last-Modified) with the new bytes — the new
 * build's variant, the encoding of the new file beside it. `Bun.file(fd)` on a descriptor of
 * ours would keep the guarantee, but Bun never closes a descriptor it is given and tells nobody
 * when the response is sent, so each request would leak one (measured with Bun 1.4.5).
 *
 * Left to the reading path (`handler.ts`): a gzip variant decoded for a client that takes no
 * coding, and a request with a Range header answered whole (Bun applies a request's Range to a
 * `Bun.file` body of a 200 itself, which would break If-Range and the ranges the specification
 * ignores).
 */
import type { Answer } from '../http/spec.js'
import { DescriptorFile, type OpenedFile, sameVersion, type Version } from '../site/file-access.js'

interface BunFiles {
  file(path: string): Blob
}

/** Bun's API when running on Bun. */
const BUN = (globalThis as { Bun?: BunFiles }).Bun

/**
 * On Bun, the body as a `Bun.file` of the representation opened (`handle` is closed), with the
 * headers to send; undefined elsewhere, or for a body this does not cover.
 */
export function bunBody(
  handle: OpenedFile,
  answer: Answer,
  rangeAsked: boolean,
): { body: Blob; headers: Headers | Record<string, string> } | undefined {
  const body = answer.body
  // On Bun every file of the site is a DescriptorFile (`site/file-access.ts`).
  if (!BUN || !(handle instanceof DescriptorFile) || !body || body.decode || (rangeAsked && !body.range))
    return undefined
  // Nothing is open unless JavaScript read it: the body does not read through it.
  void handle.close().catch(() => {})
  const file = fileOf(BUN, handle)
  return {
    body: body.range ? file.slice(body.range.start, body.range.end + 1) : file,
    headers: sentHeaders(answer.headers),
  }
}

/** The `Headers` sent with a shared answer (`site/answer-memo.ts`), built once for it. */
const SENT = new WeakMap<Answer['headers'], Headers>()

/**
 * The answer's headers and `Content-Disposition: inline` (Bun names a file body's download after
 * the file, `filename="app.js.br"`, unless told). A frozen set is an answer shared by the requests
 * that get it: its `Headers` is built once (a `Response` copies them: about 2 µs less per
 * request on Bun 1.4.5 than from a plain object), and sent byte for byte the same.
 */
function sentHeaders(headers: Answer['headers']): Headers | Record<string, string> {
  if (!Object.isFrozen(headers)) return { ...headers, 'Content-Disposition': 'inline' }
  let built = SENT.get(headers)
  if (!built) SENT.set(headers, (built = new Headers({ ...headers, 'Content-Disposition': 'inline' })))
  return built
}

/** Paths whose `Bun.file` is kept, the oldest forgotten first. */
const MAX_FILES = 1024
const FILES = new Map<string, { version: Version; blob: Blob }>()

/**
 * The `Bun.file` of the file described, kept per path while the path shows the same version
 * (`sameVersion`). A `Bun.file` holds no descriptor and no size: Bun opens and measures the path
 * each time it sends it (measured with Bun 1.4.5: the same object sent 500 times leaves no
 * descriptor open, and sent after the file was renamed over, it sends the new file with its
 * length), so keeping it only saves building it.
 */
function fileOf(bun: BunFiles, described: DescriptorFile): Blob {
  const kept = FILES.get(described.path)
  if (kept && sameVersion(kept.version, described.info)) return kept.blob
  const blob = bun.file(described.path)
  FILES.delete(described.path)
  if (FILES.size >= MAX_FILES) FILES.delete(FILES.keys().next().value as string)
  FILES.set(described.path, { version: described.info, blob })
  return blob
}
