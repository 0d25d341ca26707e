import { type Encoding, type Negotiated, negotiate } from '@preencode/server-config'
import { describe, expect, it } from 'vitest'
import { acceptPattern, refusePattern } from '../../src/shared/accept-regex.js'

const ALL: Encoding[] = ['br', 'zstd', 'gzip']

// [Accept-Encoding, available (smallest first), expected]
const CASES: [string | undefined, Encoding[], Negotiated][] = [
  [undefined, ALL, 'identity'],
  ['', ALL, 'identity'],
  ['identity', ALL, 'identity'],
  ['gzip, deflate, br, zstd', ALL, 'br'],
  ['gzip, deflate, br, zstd', ['zstd', 'br', 'gzip'], 'zstd'],
  ['gzip', ALL, 'gzip'],
  ['GZIP', ALL, 'gzip'],
  ['Br', ALL, 'br'],
  ['x-gzip', ALL, 'gzip'],
  ['X-Gzip;q=0.5', ALL, 'gzip'],
  ['brotli', ALL, 'identity'],
  ['brotli, gzip', ALL, 'gzip'],
  ['br-x, xbr, br2', ALL, 'identity'],
  ['gzip;q=0', ALL, 'identity'],
  ['gzip;q=0.0', ALL, 'identity'],
  ['gzip;q=0.000', ALL, 'identity'],
  ['gzip;q=0.001', ALL, 'gzip'],
  ['gzip; q=0.5', ALL, 'gzip'],
  ['gzip ; Q=1.0', ALL, 'gzip'],
  ['br;q=0, gzip', ALL, 'gzip'],
  ['br;q=0, zstd;q=0.1, gzip;q=1', ALL, 'zstd'],
  ['gzip;q=1, br;q=0.5', ALL, 'br'], // smallest acceptable wins, not the highest q
  ['*', ALL, 'br'],
  ['*;q=0', ALL, null],
  ['*;q=0, identity', ALL, 'identity'],
  ['*;q=0, gzip', ALL, 'gzip'],
  ['br;q=0, *', ALL, 'zstd'],
  ['identity;q=0', ALL, null],
  ['identity;q=0, gzip', ALL, 'gzip'],
  ['identity;q=0, gzip', ['br'], null],
  ['gzip', [], 'identity'],
  ['br', ['gzip'], 'identity'],
  ['gzip;q=2', ALL, 'identity'], // malformed q: entry ignored
  ['gzip;q=abc, br', ALL, 'br'],
  // RFC 9110 qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ): anything else ignores its entry.
  ['br;q=0x1', ALL, 'identity'],
  ['br;q=.5', ALL, 'identity'],
  ['br;q', ALL, 'identity'],
  ['br;q=1.0001', ALL, 'identity'],
  ['br;q=0.0001', ALL, 'identity'],
  ['br;q=0x1, gzip', ALL, 'gzip'],
  ['br;q=.5, *;q=0', ALL, null],
  ['br;q=0x1, *', ALL, 'br'], // the entry is ignored, so `*` covers br
  ['gzip;q=0.5, gzip;q=0', ALL, 'identity'], // listed twice: any q=0 refuses
  [' zstd , gzip ', ALL, 'zstd'],
  ['gzip,,br', ALL, 'br'],
]

describe('negotiate (RFC 9110 §12.5.3)', () => {
  it.each(CASES)('%j of %j -> %j', (header, available, expected) => {
    expect(negotiate(header, available)).toBe(expected)
  })
})

// The PCRE patterns the nginx/Apache generators emit must agree with negotiate() on what is
// acceptable. JavaScript regexes share the syntax used (lookahead, \s, non-capturing groups).
describe('server regexes agree with negotiate()', () => {
  const accepted = (header: string, coding: Encoding | '*'): '' | '0' | '1' => {
    if (new RegExp(refusePattern(coding), 'i').test(header)) return '0'
    if (new RegExp(acceptPattern(coding), 'i').test(header)) return '1'
    return ''
  }
  const headers = CASES.map(([h]) => h).filter(
    (h): h is string =>
      h !== undefined && !h.includes('q=2') && !h.includes('abc') && !h.includes('gzip;q=0.5, gzip;q=0'),
  )
  it.each(headers)('%j', (header) => {
    for (const coding of ALL) {
      const own = accepted(header, coding)
      const star = accepted(header, '*')
      const ok = own === '1' || (own === '' && star === '1')
      expect(ok, `${coding} in ${header}`).toBe(negotiate(header, [coding]) === coding)
    }
  })
})
