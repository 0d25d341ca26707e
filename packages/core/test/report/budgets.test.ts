// Size budgets and the text tables, on hand-made manifests: sizes parse as the report prints
// them, each format measures its own bytes (a file without the variant counts whole), and a
// file name with a newline stays on one table row.
import { describe, expect, it } from 'vitest'
import type { Manifest, ManifestFile } from '../../src/manifest/manifest.js'
import { parseByteSize, resolveBudgets } from '../../src/options/budgets.js'
import { checkBudgets } from '../../src/report/budget-check.js'
import { formatBudgetTable } from '../../src/report/budget-report.js'
import { buildReport, formatReport } from '../../src/report/report.js'

function file(path: string, size: number, variants: Partial<Record<'brotli' | 'zstd' | 'gzip', number>>): ManifestFile {
  const encoding = { brotli: 'br', zstd: 'zstd', gzip: 'gzip' } as const
  const ext = { brotli: '.br', zstd: '.zst', gzip: '.gz' } as const
  return {
    path,
    size,
    sha256: '0'.repeat(64),
    mtimeMs: 0,
    contentType: 'text/plain',
    cacheClass: 'default',
    cacheControl: 'public, max-age=3600',
    originalOnDisk: true,
    variants: Object.entries(variants).map(([format, bytes]) => ({
      format: format as 'gzip',
      encoding: encoding[format as 'gzip'],
      path: `${path}${ext[format as 'gzip']}`,
      size: bytes!,
      sha256: '0'.repeat(64),
    })),
  }
}

const manifest = {
  version: 1,
  generator: 'preencode@test',
  formats: ['brotli', 'zstd', 'gzip'],
  files: [
    file('assets/app.js', 200_000, { brotli: 50_000, zstd: 55_000, gzip: 60_000 }),
    file('assets/tiny.js', 500, {}),
    file('index.html', 30_000, { brotli: 4_000, gzip: 6_000 }),
    file('odd\nname.html', 20_000, { brotli: 3_000 }),
  ],
} as unknown as Manifest

describe('budgets', () => {
  it('parses sizes in the units the report prints, and binary ones', () => {
    expect(parseByteSize('150 kB', 'max')).toBe(150_000)
    expect(parseByteSize('1.5MB', 'max')).toBe(1_500_000)
    expect(parseByteSize('200 KiB', 'max')).toBe(204_800)
    expect(parseByteSize('512', 'max')).toBe(512)
    expect(parseByteSize(1024, 'max')).toBe(1024)
    expect(() => parseByteSize('lots', '`budgets[2].max`')).toThrow(/`budgets\[2\]\.max` is "lots"/)
    expect(() => parseByteSize(-1, '`max`')).toThrow(/`max` is -1/)
  })

  it('measures each format on its own bytes; a file without the variant counts at its size', () => {
    const result = checkBudgets(
      manifest,
      resolveBudgets([
        { path: 'assets/*.js', max: '50 kB' },
        { path: 'assets/*.js', format: 'zstd', max: '50 kB' },
        { path: /\.html$/, format: 'zstd', max: '25 kB' },
        { path: '*.css', format: 'original', max: 1 },
      ]),
    )
    const over = result.failures.map((c) => `${c.path} ${c.format} ${c.size}`)
    // brotli app.js is exactly 50 kB: at the limit is within it. zstd: 55 kB is over.
    // index.html has no zstd variant: its 30 kB original is what is sent, over 25 kB.
    expect(over.sort()).toEqual(['assets/app.js zstd 55000', 'index.html zstd 30000'])
    expect(result.checks.find((c) => c.path === 'assets/tiny.js' && c.format === 'brotli')?.size).toBe(500)
    expect(result.unmatched).toEqual([{ budget: '*.css', format: 'original', max: 1 }])
    expect(result.ok).toBe(false)
  })

  it('a newline in a file name stays on one row of the budget table and of the report', () => {
    const result = checkBudgets(manifest, resolveBudgets([{ path: '*.html', max: 100 }]))
    const table = formatBudgetTable(result)
    expect(table).toContain('odd\\nname.html')
    expect(table.split('\n')).toHaveLength(2 + result.failures.length)
    const report = buildReport(manifest, {
      dir: '/site',
      formats: ['brotli', 'zstd', 'gzip'],
      durationMs: 5,
      cacheEnabled: false,
      cacheHits: 0,
      cacheMisses: 0,
      prunedEntries: 0,
      variantsWritten: 0,
      variantsUnchanged: 0,
      rejected: {},
      skipped: { excluded: 0, incompressible: 0, 'below-threshold': 0, 'no-saving': 0 },
      staleVariants: 0,
      tempFiles: 0,
      originalsRemoved: { files: 0, bytes: 0 },
      peakBytesInFlight: 0,
      peakRssBytes: 200_000_000,
    })
    const lines = formatReport(report).split('\n')
    expect(lines.filter((l) => l.includes('name.html'))).toEqual([expect.stringContaining('odd\\nname.html')])
  })

  it('rejects a bad budget naming the entry and field', () => {
    expect(() => resolveBudgets([{ path: '', max: 1 }])).toThrow(/`budgets\[0\]\.path` must be a glob/)
    expect(() => resolveBudgets([{ path: 'a', max: 1, size: 2 }])).toThrow(/`budgets\[0\]` has unknown field `size`/)
    expect(() => resolveBudgets([{ path: 'a' }])).toThrow(/`budgets\[0\]\.max` is missing/)
    expect(() => resolveBudgets({})).toThrow(/`budgets` must be an array/)
  })
})
