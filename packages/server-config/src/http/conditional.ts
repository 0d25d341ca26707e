// Conditional-request helpers (RFC 9110 §13) for the middleware: ETags per representation,
// If-None-Match (weak), If-Match / If-Range (strong), If-Modified-Since at second precision.

const ETAG_LENGTH = 32

export function etagOf(sha256: string): string {
  return `"${sha256.slice(0, ETAG_LENGTH)}"`
}

/** RFC 9110 §13.1.2: weak comparison, `*`, lists. */
export function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true
  const opaque = etag.replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque)
}

/** RFC 9110 §13.1.1: strong comparison. */
export function match(header: string, etag: string): boolean {
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim() === etag)
}

/**
 * RFC 9110 §13.1.3: not modified when the representation is no newer than the date. A date
 * that is not one, or later than the server's clock, is ignored (a client's clock ahead of ours,
 * or a forged value, must not pin a stale copy).
 */
export function notModifiedSince(header: string, mtimeMs: number, now: number = Date.now()): boolean {
  const since = Date.parse(header)
  return !Number.isNaN(since) && since <= now && Math.floor(mtimeMs / 1000) * 1000 <= since
}
