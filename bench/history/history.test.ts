// The history part's pure pieces: the returning visitor's byte accounting on a tiny synthetic
// history, the bound's bookkeeping (what is held, what is fetched), and the SVG chart.
import { HASHED_NAME_RULE } from '@preencode/core/internal'
import { describe, expect, it } from 'vitest'
import { HistoryBound, stemFunction, VisitorHoldings } from './bound.ts'
import { replayVisitor, type VisitedFile } from './replay.ts'
import { renderLineChart } from './svg.ts'

/** A content-hashed script announced with its stem (`a-*.js`), as preencode serves one. */
const file = (
  path: string,
  hash: string,
  full: number,
  deltas?: { dictionary: string; size: number }[],
): VisitedFile => ({
  path,
  hash,
  bytes: deltas ? { full, deltas } : { full },
  ...(path.endsWith('.js') ? { dictionary: { match: `${path.split('/').at(-1)!.split('-')[0]}-*.js` } } : {}),
})
const totals = (visits: Record<string, { total: number }>[]): Record<string, number>[] =>
  visits.map((v) => Object.fromEntries(Object.entries(v).map(([m, b]) => [m, b.total])))

describe('replayVisitor', () => {
  it('charges nothing for held bytes, the newest held dictionary’s delta, else the full response', () => {
    const methods = ['pre', 'br'] as const
    const result = replayVisitor(methods, [
      // Deploy 0: first visit.
      {
        pre: [file('index.html', 'h0', 100), file('a-1.js', 'a1', 1000)],
        br: [file('index.html', 'h0', 100), file('a-1.js', 'a1', 1000)],
      },
      // Deploy 1: the script changed (new hashed name); preencode has deltas against a1 and an unknown version.
      {
        pre: [
          file('index.html', 'h1', 100),
          file('a-2.js', 'a2', 1000, [
            { dictionary: 'a1', size: 30 },
            { dictionary: 'a1', size: 40 },
            { dictionary: 'zz', size: 5 },
          ]),
        ],
        br: [file('index.html', 'h1', 100), file('a-2.js', 'a2', 1000)],
      },
      // Deploy 2: nothing changed but the page; deltas against a1 (older) and a2 (newest held).
      {
        pre: [file('index.html', 'h2', 100, [{ dictionary: 'h1', size: 10 }]), file('a-2.js', 'a2', 1000)],
        br: [file('index.html', 'h2', 100), file('a-2.js', 'a2', 1000)],
      },
      // Deploy 3: a new script with deltas against both versions held: the newest (a2) is the one advertised.
      {
        pre: [
          file('index.html', 'h2', 100),
          file('a-3.js', 'a3', 1000, [
            { dictionary: 'a1', size: 7 },
            { dictionary: 'a2', size: 20 },
          ]),
        ],
        br: [file('index.html', 'h2', 100), file('a-3.js', 'a3', 1000)],
      },
    ])
    // Deploy 2's page delta is against h1, which no response announced as a dictionary: not usable.
    expect(totals(result.returns)).toEqual([
      { pre: 0, br: 0 },
      { pre: 130, br: 1100 },
      { pre: 100, br: 100 },
      { pre: 20, br: 1000 },
    ])
    expect(result.firstVisit.map((v) => v.pre.total)).toEqual([1100, 1100, 1100, 1100])
  })

  it('advertises one dictionary per RFC 9842 §2.2.2: match-dest first, then the longest match, then the newest', () => {
    const methods = ['pre'] as const
    const site: VisitedFile = {
      path: 'preencode-assets-1.txt',
      hash: 's1',
      bytes: { full: 500 },
      dictionary: { match: '*' },
      linkedDictionary: true,
    }
    const result = replayVisitor(methods, [
      { pre: [file('index.html', 'h0', 100), file('assets/a-1.js', 'a1', 1000), site] },
      {
        pre: [
          file('index.html', 'h0', 100),
          // Its stem survived: a-*.js (longer) outranks the asset dictionary's *, so only a1's delta is usable.
          file('assets/a-2.js', 'a2', 1000, [
            { dictionary: 'a1', size: 30 },
            { dictionary: 's1', size: 5 },
          ]),
          // A new stem: only the asset dictionary matches.
          file('assets/b-2.js', 'b2', 800, [
            { dictionary: 's1', size: 40 },
            { dictionary: 'a1', size: 1 },
          ]),
          // A page: the asset dictionary matches it too, but the server has no delta against it.
          file('about.html', 'p2', 200),
          {
            ...site,
            path: 'preencode-assets-2.txt',
            hash: 's2',
            bytes: { full: 500, deltas: [{ dictionary: 's1', size: 50 }] },
          },
        ],
      },
    ])
    expect(result.returns[1]!.pre).toEqual({ total: 30 + 40 + 200 + 50, noDictionary: 0, dictionaryFetch: 50 })
    expect(result.firstVisit[0]!.pre).toEqual({ total: 1600, noDictionary: 1600, dictionaryFetch: 500 })
  })

  it('lets a dictionary with a matching match-dest outrank a longer match, and ignores one whose match-dest differs', () => {
    const methods = ['pre'] as const
    const pageDictionary: VisitedFile = {
      path: 'd.txt',
      hash: 'd1',
      bytes: { full: 50 },
      dictionary: { match: '*', matchDest: ['document'] },
      linkedDictionary: true,
    }
    const page = (hash: string, deltas?: { dictionary: string; size: number }[]): VisitedFile => ({
      path: 'docs/page.html',
      hash,
      bytes: deltas ? { full: 400, deltas } : { full: 400 },
      dictionary: { match: 'docs/page.html' },
    })
    const result = replayVisitor(methods, [
      { pre: [page('p1'), pageDictionary] },
      {
        pre: [
          page('p2', [
            { dictionary: 'd1', size: 20 },
            { dictionary: 'p1', size: 10 },
          ]),
          // A script never matches the document-only dictionary.
          { ...file('x-1.js', 'x1', 300, [{ dictionary: 'd1', size: 3 }]), dictionary: undefined },
        ],
      },
    ])
    expect(result.returns[1]!.pre).toEqual({ total: 20 + 300, noDictionary: 300, dictionaryFetch: 0 })
  })
})

describe('the bound', () => {
  const stemOf = stemFunction(HASHED_NAME_RULE.versionedAsset)
  const f = (path: string, hash: string) => ({ path, hash })

  it('reads stems with core’s hashed-name rule', () => {
    expect(stemOf('assets/index-BX3fA9zq.js')).toBe('assets/index-*.js')
    expect(stemOf('assets/app-settings.js')).toBe('assets/app-settings.js')
    expect(stemOf('index.html')).toBe('index.html')
  })

  it('fetches what is not held at its URL, against every distinct content held before, least recently loaded first', () => {
    const holdings = new VisitorHoldings(stemOf)
    const first = holdings.visit([f('index.html', 'h0'), f('a-1aaaaaaa.js', 'a1'), f('v-1vvvvvvv.js', 'v1')])
    expect(first.map((x) => [x.path, x.held])).toEqual([
      ['index.html', []],
      ['a-1aaaaaaa.js', []],
      ['v-1vvvvvvv.js', []],
    ])
    // Deploy 1: a's new version; v unchanged (from the cache); a new stem b.
    const second = holdings.visit([
      f('index.html', 'h1'),
      f('a-2aaaaaaa.js', 'a2'),
      f('b-2bbbbbbb.js', 'b2'),
      f('v-1vvvvvvv.js', 'v1'),
    ])
    expect(second.map((x) => [x.path, x.newStem])).toEqual([
      ['index.html', false],
      ['a-2aaaaaaa.js', false],
      ['b-2bbbbbbb.js', true],
    ])
    expect(second[0]!.held).toEqual(['h0', 'a1', 'v1'])
    // Deploy 2: v loaded again last time, so now newer than a1 and h0; a page that went back to h0 is fetched again (the URL holds h1).
    const third = holdings.visit([f('index.html', 'h0'), f('a-2aaaaaaa.js', 'a2'), f('v-1vvvvvvv.js', 'v1')])
    expect(third.map((x) => x.path)).toEqual(['index.html'])
    expect(third[0]!.held).toEqual(['h0', 'a1', 'h1', 'a2', 'b2', 'v1'])
  })

  it('comes to 0 on the first visit and on a visit with nothing new, and never above brotli 11 alone', async () => {
    const bound = new HistoryBound(HASHED_NAME_RULE.versionedAsset)
    const text = (n: number): Buffer =>
      Buffer.from(
        Array.from({ length: 400 }, (_, i) => `export const value${i} = ${(i * 7919 + n) % 1000};\n`).join(''),
      )
    const deploys = [
      new Map([['app-1aaaaaaa.js', text(0)]]),
      new Map([['app-1aaaaaaa.js', text(0)]]),
      new Map([
        ['app-2aaaaaaa.js', text(1)],
        ['new-2bbbbbbb.js', text(0)],
      ]),
    ]
    const [first, same, changed] = await Promise.all(deploys.map((files) => bound.visit(files)))
    expect(first).toEqual({ fetched: 0, bound: 0, brotli: 0, newStemBound: 0 })
    expect(same).toEqual({ fetched: 0, bound: 0, brotli: 0, newStemBound: 0 })
    expect(changed!.fetched).toBe(2)
    expect(changed!.bound).toBeLessThan(changed!.brotli / 2)
    expect(changed!.newStemBound).toBeGreaterThan(0)
    expect(changed!.newStemBound).toBeLessThan(changed!.bound)
  })
})

describe('renderLineChart', () => {
  it('writes one well-formed SVG with a point per finite value and a gap at a missing one', () => {
    const svg = renderLineChart({
      title: 'bytes <per> deploy & more',
      xLabel: 'release',
      formatY: (v) => `${v} B`,
      xLabels: ['1.0.0', '1.0.1', '1.0.2', '1.1.0'],
      series: [
        { name: 'a', color: '#000', values: [10, 20, 30, 40] },
        { name: 'b', color: '#f00', values: [5, Number.NaN, 15, 25] },
      ],
    })
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true)
    expect(svg).toContain('bytes &lt;per&gt; deploy &amp; more')
    expect(svg.match(/<circle /g)).toHaveLength(7)
    expect(svg.match(/<polyline /g)).toHaveLength(3)
    // Every tag opened is closed or self-closed: no stray `<` from a label.
    const opened = svg.match(/<(?!\/)(\w+)[^>]*[^/]>/g)?.length ?? 0
    expect(svg.match(/<\/\w+>/g)?.length).toBe(opened)
    for (const points of svg.matchAll(/points="([^"]+)"/g))
      for (const xy of points[1]!.split(' ')) expect(xy).toMatch(/^\d+(\.\d)?,\d+(\.\d)?$/)
  })

  it('puts the ticks on round multiples of the unit', () => {
    const svg = renderLineChart({
      title: 't',
      xLabel: 'x',
      formatY: (v) => `${v / 1024} KiB`,
      yUnit: 1024,
      xLabels: ['a', 'b'],
      series: [{ name: 's', color: '#000', values: [0, 290 * 1024] }],
    })
    const ticks = [...svg.matchAll(/text-anchor="end">([^<]+)</g)].map((m) => m[1])
    expect(ticks).toEqual(['0 KiB', '100 KiB', '200 KiB', '300 KiB'])
  })
})
