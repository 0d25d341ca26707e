import { describe, expect, it } from 'vitest'
import { createProgress, formatTimeLeft, progressStatus } from '../../src/report/progress.js'

describe('progress status', () => {
  it('shows percentage by bytes, the rate and the time left once a second has passed', () => {
    expect(progressStatus(80, 659, { done: 30e6, total: 120e6 }, 500)).toBe('[ 25%] 80/659')
    // 30 MB in 20 s = 1.5 MB/s; 90 MB left = 60 s.
    expect(progressStatus(80, 659, { done: 30e6, total: 120e6 }, 20_000)).toBe(
      '[ 25%] 80/659 · 1.50 MB/s · 1m 00s left',
    )
    expect(progressStatus(659, 659, { done: 120e6, total: 120e6 }, 80_000)).toBe('[100%] 659/659 · 1.50 MB/s')
    expect(progressStatus(3, 9, undefined, 5000)).toBe('[3/9]')
  })

  it('formats the time left in seconds, minutes or hours', () => {
    expect([formatTimeLeft(400), formatTimeLeft(45_000), formatTimeLeft(185_000), formatTimeLeft(3_720_000)]).toEqual([
      '1s',
      '45s',
      '3m 05s',
      '1h 02m',
    ])
  })

  it('draws the status line on a TTY with the clock it is given', () => {
    let now = 0
    const s = {
      isTTY: true,
      columns: 80,
      out: '',
      write(chunk: string) {
        this.out += chunk
        return true
      },
    }
    const progress = createProgress(s, { env: {}, intervalMs: 0, now: () => now })
    now = 10_000
    progress.update(1, 4, 'assets/app.js', { done: 2e6, total: 8e6 })
    expect(s.out).toContain('25%')
    expect(s.out).toContain('200.0 kB/s')
    expect(s.out).toContain('30s left')
    expect(s.out).toContain('assets/app.js')
  })

  it('stays silent in CI even on a TTY', () => {
    const s = {
      isTTY: true,
      columns: 80,
      out: '',
      write(chunk: string) {
        this.out += chunk
        return true
      },
    }
    const progress = createProgress(s, { env: { CI: 'true' } })
    progress.update(1, 2, 'a.js', { done: 1, total: 2 })
    expect(s.out).toBe('')
  })
})
