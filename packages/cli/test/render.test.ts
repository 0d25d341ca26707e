// The text the deploy and verify commands print.

import type { VerifyResult } from '@preencode/server-config'
import { describe, expect, it } from 'vitest'
import { formatSummary, formatVerifyReport } from '../src/render.js'

const check = (
  path: string,
  acceptEncoding: string | undefined,
  problems: string[],
): VerifyResult['checks'][number] => ({
  path,
  url: `http://127.0.0.1:8080/${path}`,
  acceptEncoding,
  status: 200,
  contentEncoding: undefined,
  contentType: 'text/html; charset=utf-8',
  vary: 'Accept-Encoding',
  problems,
})

describe('formatVerifyReport', () => {
  it('one line when every check passed', () => {
    const checks = [check('index.html', 'br', [])]
    const text = formatVerifyReport({ url: 'http://127.0.0.1:8080/', files: 1, checks, failures: [], durationMs: 1234 })
    expect(text).toBe('verify http://127.0.0.1:8080/: 1 checks on 1 files passed in 1.23 s')
  })

  it('a table of the failed checks, then the count', () => {
    const failing = check('index.html', 'br', [
      'no Content-Encoding, expected br (the variant exists and was accepted)',
    ])
    const text = formatVerifyReport({
      url: 'http://127.0.0.1:8080/',
      files: 2,
      checks: [failing, check('a.js', 'gzip', [])],
      failures: [failing],
      durationMs: 10,
    })
    const lines = text.split('\n')
    expect(lines[0]).toMatch(/^URL\s+Accept-Encoding\s+Status\s+Content-Encoding\s+Problem$/)
    expect(lines[2]).toMatch(/^\/index\.html\s+br\s+200\s+-\s+no Content-Encoding, expected br/)
    expect(lines.at(-1)).toBe('verify http://127.0.0.1:8080/: 1 of 2 checks failed on 2 files')
  })

  it('deploy sizes in the decimal units of the report (kB = 1000 B)', () => {
    const summary = {
      target: 'folder www',
      deployId: 'x',
      dryRun: false,
      uploaded: 3,
      uploadedBytes: 2048,
      skipped: 0,
      deleted: 0,
      kept: 0,
      leftOut: 0,
      requests: 3,
      durationMs: 10,
    }
    expect(formatSummary(summary)).toMatch(/^folder www: uploaded 3 objects \(2\.0 kB\), /)
    expect(formatSummary({ ...summary, uploadedBytes: 3_500_000 })).toContain('(3.50 MB)')
  })
})
