/**
 * `createPreencodeHandler(dir)`: the site folder served as a Fetch handler,
 * `(request: Request) => Promise<Response | undefined>`, for any runtime with the Fetch API and
 * `node:fs` (Node, Bun, Deno; Hono, srvx/h3, Fastify and `preencode serve` on top). It answers
 * by the serving specification (`http/spec.ts`) from the site on disk (`site/site.ts`), exactly
 * as the Node middleware does, and resolves `undefined` for what is not a file of the site
 * (another method, no such file) so the app can go on; with `fallthrough: false` a missing path
 * gets the site's `404.html` with status 404 instead, after clean URLs and the SPA fallback
 * (`http/conventions.ts`), as `preencode serve` answers.
 *
 * The stored bytes go out as they are, with their Content-Encoding (a runtime that compresses
 * responses leaves one that has it alone); a small file is read whole, a large one streamed
 * from the file handle, a range read from its offset, a gzip variant decoded by the standard
 * `DecompressionStream` for a client that takes no coding (`keepOriginals: false`). On Bun a
 * body is a `Bun.file` (sent by Bun: no byte through JavaScript, memory flat under slow readers),
 * see `bunBody`. Out of file handles, the answer is 503 with Retry-After (`site/handles.ts`).
 */
import { isValidHost } from '../http/host.js'
import { readRequest } from '../http/request.js'
import type { AnswerBody } from '../http/spec.js'
import { DescriptorFile, type OpenedFile } from '../site/file-access.js'
import { isOutOfHandles, outOfHandlesAnswer } from '../site/handles.js'
import { type PreencodeMiddlewareOptions, type Resolved, servedSite } from '../site/site.js'
import { bunBody } from './bun-body.js'

/**
 * `createPreencodeHandler()`'s options: the same type as `PreencodeMiddlewareOptions` (one set
 * of options of the site on disk); this name is kept for the handler's users.
 */
export type PreencodeHandlerOptions = PreencodeMiddlewareOptions

/** Answers a request for a file of the site; `undefined` when it is not one (let the app go on). */
export type PreencodeHandler = (request: Request) => Promise<Response | undefined>

/** Bodies up to this size are read in one call; larger ones are streamed. */
const READ_WHOLE_BYTES = 64 * 1024
/** Chunk size of a streamed body. */
const CHUNK_BYTES = 64 * 1024
/**
 * Bun.serve drops a handler's Content-Length on a ReadableStream body and sends it chunked
 * (oven-sh/bun#10507, open in Bun 1.4.5): there a body `bunBody` leaves (a decoded one, a range
 * request answered whole) is read (and decoded) whole, so it keeps its length, still from the one
 * handle opened (a rebuild mid-request cannot mix two files).
 */
const STREAM_KEEPS_LENGTH = !('Bun' in globalThis)

/** Creates the handler for a preencode output directory. */
export function createPreencodeHandler(dir: string, options: PreencodeHandlerOptions = {}): PreencodeHandler {
  const { site, index } = servedSite(dir, options)
  return async (request) => {
    // Deno builds request.url from Host: a Host with path characters would choose the file.
    if (!isValidHost(request.headers.get('host'))) return new Response(null, { status: 400 })
    const read = readRequest(request.method, request.url, (name) => request.headers.get(name), index)
    if (read.kind !== 'site') return undefined
    for (let attempt = 1; ; attempt++) {
      let resolved: Resolved | undefined
      try {
        resolved = await site.answerFor(read.target, read.facts, read.location)
      } catch (error) {
        if (!isOutOfHandles(error)) throw error
        const busy = outOfHandlesAnswer()
        return new Response(busy.body, { status: busy.status, headers: busy.headers })
      }
      if (!resolved) return undefined
      const { answer, handle } = resolved
      if (!answer.body || !handle) return new Response(null, { status: answer.status, headers: answer.headers })
      const sent = bunBody(handle, answer, read.facts.headers.range !== undefined)
      if (sent) return new Response(sent.body, { status: answer.status, headers: sent.headers })
      if (attempt === 1 && !(await stillDescribed(handle))) continue
      const body = await bodyOf(handle, answer.body, answer.headers['Content-Length'])
      return new Response(body, { status: answer.status, headers: answer.headers })
    }
  }
}

/**
 * False when the file described on Bun was replaced before this first read (a rebuild between
 * the handler's stat and its open, `site/file-access.ts`): the request is answered again, once,
 * from the new file. A `FileHandle` is open already: nothing to check.
 */
async function stillDescribed(handle: OpenedFile): Promise<boolean> {
  if (!(handle instanceof DescriptorFile)) return true
  try {
    await handle.stat()
    return true
  } catch (error) {
    await handle.close()
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}

/** The bytes to send from the file opened; the handle is closed when they are read or the stream ends. */
async function bodyOf(
  handle: OpenedFile,
  body: AnswerBody,
  length: string | undefined,
): Promise<Uint8Array | ReadableStream<Uint8Array>> {
  const start = body.range?.start ?? 0
  const size = body.range ? body.range.end - body.range.start + 1 : Number(length ?? Number.NaN)
  if (!body.decode && Number.isFinite(size) && (size <= READ_WHOLE_BYTES || !STREAM_KEEPS_LENGTH)) {
    const bytes = new Uint8Array(size)
    const read = await handle.read(bytes, 0, size, start).catch(async (error: unknown) => {
      await handle.close().catch(() => {})
      throw error
    })
    // Cut short since it was opened (truncated in place): streamed, so the response fails where the file ends.
    if (read.bytesRead === size) {
      await handle.close().catch(() => {})
      return bytes
    }
  }
  const stream = streamOf(handle, start, body.decode ? Number.POSITIVE_INFINITY : size)
  if (!body.decode) return stream
  const decoded = stream.pipeThrough(
    new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>,
  )
  return STREAM_KEEPS_LENGTH ? decoded : new Uint8Array(await new Response(decoded).arrayBuffer())
}

/** `length` bytes (Infinity: to the end) from `start`, read as the consumer pulls; closes the handle. */
function streamOf(handle: OpenedFile, start: number, length: number): ReadableStream<Uint8Array> {
  let position = start
  let left = length
  const close = () => handle.close().catch(() => {})
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = new Uint8Array(Math.min(CHUNK_BYTES, left))
        const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, position)
        position += bytesRead
        left -= bytesRead
        if (bytesRead > 0) controller.enqueue(chunk.subarray(0, bytesRead))
        // The file ends before the length sent (truncated while sent): fail, so the connection is
        // ended rather than left waiting for bytes that will never come.
        if (bytesRead === 0 && Number.isFinite(left)) throw new Error('the file was cut short while it was sent')
        if (bytesRead === 0 || left <= 0) {
          await close()
          controller.close()
        }
      } catch (error) {
        await close()
        controller.error(error)
      }
    },
    cancel: close,
  })
}
