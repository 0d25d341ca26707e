/**
 * File-handle exhaustion, told apart from a missing file. When the process (EMFILE) or the
 * machine (ENFILE) has no file handle left, `open` fails for a file that exists: answering 404
 * then would be a lie a CDN may cache (issue 35). It is a moment of overload instead: 503 with
 * `Retry-After`, never stored, and the next request opens again once handles are free.
 */

/** Seconds a client is told to wait before it asks again. */
const OUT_OF_HANDLES_RETRY_SECONDS = 1

const CODES = new Set(['EMFILE', 'ENFILE'])

/** True for "too many open files" (of the process or of the system), also when wrapped as a `cause`. */
export function isOutOfHandles(error: unknown): boolean {
  for (let seen = error, depth = 0; seen && typeof seen === 'object' && depth < 4; depth++) {
    if (CODES.has(String((seen as { code?: unknown }).code))) return true
    seen = (seen as { cause?: unknown }).cause
  }
  return false
}

/** The 503 answer's status, headers and body, as the middleware and the Fetch handler send it. */
export function outOfHandlesAnswer(): { status: 503; headers: Record<string, string>; body: string } {
  const body = 'Service Unavailable: too many open files, try again\n'
  return {
    status: 503,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': String(new TextEncoder().encode(body).byteLength),
      'Retry-After': String(OUT_OF_HANDLES_RETRY_SECONDS),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
    body,
  }
}
