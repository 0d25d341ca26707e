// The shared tier's behaviour when its store fails, with a store made in the test (the S3
// store itself is tested against MinIO and a silent TCP server in the CLI suites).
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/cache/cache.js'
import type { RemoteStore } from '../../src/cache/s3-store.js'
import { withSharedCache } from '../../src/cache/shared-cache.js'

describe('a shared cache whose store stops answering', () => {
  it('the first failure turns it off: requests waiting on the store are given up at once, with one warning', async () => {
    let calls = 0
    let failFirst: (error: Error) => void = () => {}
    const store: RemoteStore = {
      description: 's3://bucket/prefix',
      get: () => {
        calls++
        // The first request fails (its timeout); every later one would never settle.
        return calls === 1 ? new Promise((_, reject) => (failFirst = reject)) : new Promise(() => {})
      },
      put: () => new Promise(() => {}),
      close() {},
    }
    const warnings: string[] = []
    const cache = withSharedCache(openCache(false, 0), async () => store, {
      onUnavailable: (error, operation) => warnings.push(`${operation}: ${(error as Error).message}`),
    })
    const gets = Array.from({ length: 20 }, (_, i) => cache.get(String(i).padStart(64, '0')))
    await new Promise((tick) => setTimeout(tick, 10))
    failFirst(Object.assign(new Error('no answer'), { name: 'TimeoutError' }))
    expect(await Promise.all(gets)).toEqual(Array.from({ length: 20 }, () => undefined))
    expect(warnings).toEqual(['read: no answer'])
    // Off for the rest of the run: no new request reaches the store, writes included.
    await cache.get('f'.repeat(64))
    await cache.set('e'.repeat(64), Buffer.from('x'))
    expect(calls).toBe(20)
  })
})
