/**
 * Byte ranges (RFC 9110 §14.1.2). Only a single range is honoured; a request for several is
 * answered with the whole representation, which §14.2 allows.
 */

export interface ByteRange {
  /** First byte, inclusive. */
  start: number
  /** Last byte, inclusive. */
  end: number
}

/**
 * Parses a Range header against a representation of `size` bytes.
 * @returns the range, `undefined` to ignore the header (not bytes, malformed, several ranges),
 *   or `'unsatisfiable'` for a 416
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!match) return undefined
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return undefined
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return 'unsatisfiable'
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (end < start) return undefined
  return { start, end }
}
