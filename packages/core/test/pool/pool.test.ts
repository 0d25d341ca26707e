import { describe, expect, it } from 'vitest'
// The default budget's rule, tested directly.
import { byteBudgetFor, MIN_BYTES_IN_FLIGHT, WorkPool } from '../../src/pool/pool.js'

/** A task that finishes only when the test says so, to observe what runs at the same time. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r))

describe('WorkPool', () => {
  it('never runs more than `concurrency` tasks at once', async () => {
    const pool = new WorkPool({ concurrency: 3 })
    let running = 0
    let peak = 0
    await Promise.all(
      Array.from({ length: 20 }, () =>
        pool.run(async () => {
          running++
          peak = Math.max(peak, running)
          await tick()
          running--
        }),
      ),
    )
    expect(peak).toBe(3)
    expect(pool.peaks.peakRunning).toBe(3)
  })

  it('keeps bytes in flight within the budget, whatever the number of files', async () => {
    const pool = new WorkPool({ concurrency: 100, maxBytesInFlight: 100 })
    let held = 0
    let peak = 0
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        pool.withBytes(10 + (i % 4) * 10, async () => {
          held += 10 + (i % 4) * 10
          peak = Math.max(peak, held)
          await tick()
          held -= 10 + (i % 4) * 10
        }),
      ),
    )
    expect(peak).toBeLessThanOrEqual(100)
    expect(pool.peaks.peakBytes).toBeLessThanOrEqual(100)
  })

  it('holds at most maxFilesInFlight files at once, however small they are', async () => {
    const pool = new WorkPool({ concurrency: 2, maxBytesInFlight: 1_000_000, maxFilesInFlight: 8 })
    let held = 0
    let peak = 0
    await Promise.all(
      Array.from({ length: 200 }, () =>
        pool.withBytes(1, async () => {
          held += 1
          peak = Math.max(peak, held)
          await tick()
          held -= 1
        }),
      ),
    )
    expect(peak).toBe(8)
    expect(pool.peaks.peakFiles).toBe(8)
  })

  it('by default holds 16 MiB, or one largest file per slot once fitted, counting every byte admitted', async () => {
    const MiB = 1024 * 1024
    expect(MIN_BYTES_IN_FLIGHT).toBe(16 * MiB)
    expect(byteBudgetFor(1_000, 2)).toBe(16 * MiB)
    expect(byteBudgetFor(7 * MiB, 2)).toBe(16 * MiB)
    expect(byteBudgetFor(10 * MiB, 2)).toBe(20 * MiB)
    expect(byteBudgetFor(10 * MiB, 4)).toBe(40 * MiB)

    // The 10x bench site in miniature: many files of a few MiB waiting for two encoders.
    const sizes = Array.from({ length: 60 }, (_, i) => [7, 4, 2, 1][i % 4]! * MiB)
    const run = async (pool: WorkPool): Promise<number> => {
      let held = 0
      let peak = 0
      await Promise.all(
        sizes.map((size) =>
          pool.withBytes(size, async () => {
            held += size
            peak = Math.max(peak, held)
            await pool.run(tick)
            held -= size
          }),
        ),
      )
      return peak
    }
    const unfitted = new WorkPool({ concurrency: 2 })
    expect(unfitted.maxBytesInFlight).toBe(16 * MiB)
    const peak = await run(unfitted)
    expect(peak).toBeLessThanOrEqual(16 * MiB)
    expect(peak).toBeGreaterThan(8 * MiB) // the budget is used, not just one file at a time
    expect(unfitted.peaks.peakBytes).toBe(peak)

    const fitted = new WorkPool({ concurrency: 2 })
    fitted.fitByteBudget(12 * MiB)
    expect(fitted.maxBytesInFlight).toBe(24 * MiB)
    expect(await run(fitted)).toBeLessThanOrEqual(24 * MiB)

    // An explicit budget is the caller's: fitting leaves it alone.
    const explicit = new WorkPool({ concurrency: 2, maxBytesInFlight: 5 * MiB })
    explicit.fitByteBudget(12 * MiB)
    expect(explicit.maxBytesInFlight).toBe(5 * MiB)
  })

  it('runs a file larger than the budget alone, and does not starve it behind small ones', async () => {
    const pool = new WorkPool({ concurrency: 8, maxBytesInFlight: 100 })
    const small = deferred()
    const order: string[] = []
    const first = pool.withBytes(30, async () => {
      order.push('small-1')
      await small.promise
    })
    const big = pool.withBytes(500, async () => {
      order.push('big')
      expect(pool.peaks.peakBytes).toBe(500)
    })
    // Queued after the big one: FIFO admission keeps it waiting until the big one ran.
    const later = pool.withBytes(10, async () => {
      order.push('small-2')
    })
    await tick()
    expect(order).toEqual(['small-1'])
    small.resolve()
    await Promise.all([first, big, later])
    expect(order).toEqual(['small-1', 'big', 'small-2'])
  })

  it('rejects queued work with the abort reason and lets running work finish', async () => {
    const controller = new AbortController()
    const pool = new WorkPool({ concurrency: 1, signal: controller.signal })
    const gate = deferred()
    const running = pool.run(() => gate.promise.then(() => 'done'))
    const queued = pool.run(async () => 'never')
    controller.abort(new Error('stop'))
    await expect(queued).rejects.toThrow('stop')
    gate.resolve()
    await expect(running).resolves.toBe('done')
    await expect(pool.run(async () => 'late')).rejects.toThrow('stop')
  })

  it('admits tens of thousands of queued waiters in order', async () => {
    const pool = new WorkPool({ concurrency: 2, maxBytesInFlight: 10 })
    const order: number[] = []
    await Promise.all(
      Array.from({ length: 20_000 }, (_, i) =>
        pool.withBytes(5, () =>
          pool.run(async () => {
            order.push(i)
          }),
        ),
      ),
    )
    expect(order).toHaveLength(20_000)
    expect(order.slice(0, 5)).toEqual([0, 1, 2, 3, 4])
    expect(pool.peaks).toEqual({ peakRunning: 2, peakBytes: 10, peakFiles: 2 })
  })

  it('does not deadlock when byte holders wait for slots', async () => {
    const pool = new WorkPool({ concurrency: 1, maxBytesInFlight: 1000 })
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        pool.withBytes(100, () => Promise.all([pool.run(async () => i), pool.run(async () => i * 2)])),
      ),
    )
    expect(results.at(-1)).toEqual([9, 18])
  })
})

describe('WorkPool scheduling', () => {
  it('gives a freed slot to the waiting task with the highest priority, ties in arrival order', async () => {
    const pool = new WorkPool({ concurrency: 1 })
    const gate = deferred()
    const order: string[] = []
    const first = pool.run(() => gate.promise)
    const queued = [
      pool.run(async () => {
        order.push('small')
      }, 1),
      pool.run(async () => {
        order.push('large')
      }, 100),
      pool.run(async () => {
        order.push('medium-a')
      }, 10),
      pool.run(async () => {
        order.push('medium-b')
      }, 10),
      pool.run(async () => {
        order.push('none')
      }),
    ]
    await tick()
    expect(order).toEqual([])
    gate.resolve()
    await Promise.all([first, ...queued])
    expect(order).toEqual(['large', 'medium-a', 'medium-b', 'small', 'none'])
  })

  it('keeps every slot busy while work is queued', async () => {
    const pool = new WorkPool({ concurrency: 2 })
    let running = 0
    const samples: number[] = []
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        pool.run(async () => {
          running++
          samples.push(running)
          await tick()
          running--
        }, i % 7),
      ),
    )
    // Every task but the very first one started while another was running.
    expect(samples.slice(1).every((n) => n === 2)).toBe(true)
  })
})

describe('WorkPool reservations', () => {
  it('holds a reserved slot for its task, and hands it on when released unused', async () => {
    const pool = new WorkPool({ concurrency: 1 })
    const order: string[] = []
    // The large file reserves first (jobs start largest first) but has its bytes ready last.
    const large = pool.reserve(100)
    const small = pool.reserve(1)
    const skipped = pool.reserve(50)
    const smallDone = small.run(async () => {
      order.push('small')
    })
    await tick()
    expect(order).toEqual([])
    await large.run(async () => {
      order.push('large')
    })
    skipped.release()
    await smallDone
    expect(order).toEqual(['large', 'small'])
    expect(pool.peaks.peakRunning).toBe(1)
    // Released twice, or after running: no slot is freed twice.
    skipped.release()
    large.release()
    let running = 0
    let peak = 0
    await Promise.all(
      [1, 2, 3].map(() =>
        pool.run(async () => {
          peak = Math.max(peak, ++running)
          await tick()
          running--
        }),
      ),
    )
    expect(peak).toBe(1)
  })
})
