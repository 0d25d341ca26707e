import { describe, expect, it } from 'vitest'
import { MANIFEST_VERSION, type Manifest } from '../../src/manifest/manifest.js'
import { createProgress } from '../../src/report/progress.js'
import { buildReport, formatReport, type ReportCounters } from '../../src/report/report.js'
import { formatBytes } from '../../src/report/units.js'

const manifest: Manifest = {
  version: MANIFEST_VERSION,
  generator: 'test',
  formats: ['brotli', 'gzip'],
  files: [
    {
      path: 'assets/app.js',
      size: 100_000,
      sha256: 'a',
      mtimeMs: 1,
      contentType: 'text/javascript; charset=utf-8',
      cacheClass: 'immutable',
      cacheControl: 'x',
      originalOnDisk: true,
      variants: [
        { format: 'brotli', encoding: 'br', path: 'assets/app.js.br', size: 20_000, sha256: 'b' },
        { format: 'gzip', encoding: 'gzip', path: 'assets/app.js.gz', size: 30_000, sha256: 'c' },
      ],
    },
    {
      path: 'index.html',
      size: 10_000,
      sha256: 'd',
      mtimeMs: 1,
      contentType: 'text/html; charset=utf-8',
      cacheClass: 'html',
      cacheControl: 'no-cache',
      originalOnDisk: true,
      variants: [{ format: 'gzip', encoding: 'gzip', path: 'index.html.gz', size: 4_000, sha256: 'e' }],
    },
    {
      path: 'a.png',
      size: 5_000,
      sha256: 'f',
      mtimeMs: 1,
      contentType: 'image/png',
      cacheClass: 'default',
      cacheControl: 'x',
      originalOnDisk: true,
      variants: [],
    },
  ],
}

const counters = (over: Partial<ReportCounters> = {}): ReportCounters => ({
  dir: '/site',
  formats: ['brotli', 'gzip'],
  durationMs: 1234.5,
  cacheEnabled: true,
  cacheHits: 0,
  cacheMisses: 4,
  prunedEntries: 0,
  variantsWritten: 3,
  variantsUnchanged: 0,
  rejected: { brotli: 1 },
  skipped: { excluded: 0, incompressible: 1, 'below-threshold': 0, 'no-saving': 0 },
  staleVariants: 0,
  tempFiles: 0,
  originalsRemoved: { files: 0, bytes: 0 },
  peakBytesInFlight: 110_000,
  peakRssBytes: 200_000_000,
  ...over,
})

describe('the report', () => {
  it('totals per format from the manifest', () => {
    const report = buildReport(manifest, counters())
    expect(report.formats).toEqual([
      { format: 'brotli', files: 1, bytesBefore: 100_000, bytesAfter: 20_000, savedPercent: 80, rejected: 1 },
      { format: 'gzip', files: 2, bytesBefore: 110_000, bytesAfter: 34_000, savedPercent: 69.1, rejected: 0 },
    ])
    expect(report).toMatchObject({ files: 3, compressedFiles: 2, bytesOriginal: 115_000, durationMs: 1235 })
    expect(report.largest.map((f) => f.path)).toEqual(['assets/app.js', 'index.html'])
    // JSON mode is the object itself: it must survive a round trip unchanged.
    expect(JSON.parse(JSON.stringify(report))).toEqual(report)
  })

  it('renders a compact table without colour by default', () => {
    const text = formatReport(buildReport(manifest, counters()))
    expect(text).toContain('preencode: 2 of 3 files -> 3 variants in 1.2 s (4 compressed, 0 from cache)')
    expect(text).toMatch(/brotli\s+1\s+100\.0 kB\s+20\.0 kB\s+80\.0%/)
    expect(text).toMatch(/assets\/app\.js\s+100\.0 kB\s+br 20\.0 kB\s+gz 30\.0 kB/)
    expect(text).toContain('skipped: 1 incompressible')
    expect(text).not.toContain('\x1b[')
  })

  it('says when everything came from the cache', () => {
    const text = formatReport(
      buildReport(manifest, counters({ cacheHits: 42, cacheMisses: 0, variantsWritten: 0, variantsUnchanged: 3 })),
    )
    expect(text.split('\n')[0]).toContain('all 42 cached, nothing compressed')
  })

  it('mentions removals, freed disk and colours only when asked and NO_COLOR is unset', () => {
    const report = buildReport(
      manifest,
      counters({ staleVariants: 2, tempFiles: 1, originalsRemoved: { files: 2, bytes: 110_000 } }),
    )
    const text = formatReport(report, { color: true, top: 1 })
    expect(text).toContain('2 stale variants removed')
    expect(text).toContain('1 temp files of an interrupted run removed')
    expect(text).toContain('2 originals removed (keepOriginals: false), 110.0 kB freed')
    expect(text).not.toContain('index.html  ')
    if (!process.env.NO_COLOR) expect(text).toContain('\x1b[1m')
  })

  it('formats bytes in decimal units', () => {
    expect([formatBytes(999), formatBytes(1500), formatBytes(2_345_678)]).toEqual(['999 B', '1.5 kB', '2.35 MB'])
  })
})

describe('createProgress', () => {
  const stream = (isTTY: boolean): { isTTY: boolean; columns: number; out: string; write(s: string): boolean } => ({
    isTTY,
    columns: 40,
    out: '',
    write(s: string) {
      this.out += s
      return true
    },
  })

  it('prints nothing when not a TTY, in CI, with NO_COLOR or TERM=dumb', () => {
    for (const [tty, env] of [
      [false, {}],
      [true, { CI: 'true' }],
      [true, { NO_COLOR: '1' }],
      [true, { TERM: 'dumb' }],
    ] as const) {
      const s = stream(tty)
      const progress = createProgress(s, { env })
      progress.update(1, 2, 'a.js')
      progress.update(2, 2, 'b.js')
      progress.done()
      expect(progress.active).toBe(false)
      expect(s.out).toBe('')
    }
  })

  it('redraws one line on a TTY and clears it when done', () => {
    const s = stream(true)
    const progress = createProgress(s, { env: {}, intervalMs: 0 })
    progress.update(1, 3, 'assets/a-very-long-path/that-does-not-fit-in-forty-columns.js')
    progress.update(3, 3, 'b.js')
    progress.done()
    const lines = s.out.split('\r\x1b[2K').filter(Boolean)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain('…')
    expect(lines[1]).toContain('b.js')
    expect(s.out.endsWith('\r\x1b[2K')).toBe(true)
  })
})

describe('createDebug', () => {
  it('turns on by DEBUG namespace patterns, with exclusions', async () => {
    const { createDebug } = await import('../../src/debug.js')
    expect(createDebug('preencode:cache', { DEBUG: 'preencode:*' }).enabled).toBe(true)
    expect(createDebug('preencode:cache', { DEBUG: 'preencode:run,preencode:cache' }).enabled).toBe(true)
    expect(createDebug('preencode:cache', { DEBUG: 'preencode:*,-preencode:cache' }).enabled).toBe(false)
    expect(createDebug('preencode:cache', { DEBUG: 'vite:*' }).enabled).toBe(false)
    expect(createDebug('preencode:cache', {}).enabled).toBe(false)
  })
})
