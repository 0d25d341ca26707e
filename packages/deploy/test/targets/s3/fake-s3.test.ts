// What MinIO will not do on demand: throttling answers (retries with back-off), per-key errors in
// DeleteObjects, and thousands of stale keys (batches of 1000). A minimal path-style S3 on
// node:http stands in for the store.

import { type DeployEvent, deploy, type S3RequestRecord } from '@preencode/deploy'
import { s3Target } from '@preencode/deploy/s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { siteObjects } from '../../../src/plan/plan.js'
import { makeSite } from '../../helpers.js'
import { FakeS3 } from './fake-s3-server.js'

let fake: FakeS3
let endpoint: string
let site: Awaited<ReturnType<typeof makeSite>>

beforeAll(async () => {
  fake = new FakeS3()
  endpoint = await fake.listen()
  site = await makeSite(1)
})
afterAll(async () => {
  fake?.server.close()
  await site?.remove()
})

const target = (records: S3RequestRecord[] = []) =>
  s3Target({
    bucket: 'site',
    endpoint,
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    retry: { retries: 3, baseDelayMs: 5, maxDelayMs: 20 },
    onRequest: (r) => records.push(r),
  })

describe('s3Target against a scripted store', () => {
  it('retries SlowDown answers with back-off and succeeds', async () => {
    fake.throttle.set('index.html', 2)
    fake.throttle.set('assets/vendor-9f8e7d6c.js', 1)
    const events: DeployEvent[] = []
    const records: S3RequestRecord[] = []
    const { summary } = await deploy({ dir: site.root, target: target(records), onEvent: (e) => events.push(e) })
    expect(summary.uploaded).toBe(siteObjects(site.manifest).length)
    const retries = events.filter((e) => e.type === 'retry')
    expect(retries.map((e) => (e.type === 'retry' ? e.what : '')).sort()).toEqual([
      'upload of assets/vendor-9f8e7d6c.js',
      'upload of index.html',
      'upload of index.html',
    ])
    expect(retries.every((e) => e.type === 'retry' && e.error === 'SlowDown')).toBe(true)
    // Every attempt is a request.
    expect(records.filter((r) => r.stage === 'start' && r.key === 'index.html').length).toBe(3)
  })

  it('deletes thousands of stale keys in batches of 1000 (listing paginated)', async () => {
    for (let i = 0; i < 2500; i++)
      fake.objects.set(`stale/${i}.js`, { body: Buffer.from('x'), headers: {}, etag: '"x"' })
    fake.deleteBatches = []
    const { summary } = await deploy({ dir: site.root, target: target(), delete: true })
    expect(summary.deleted).toBe(2500)
    expect(fake.deleteBatches.sort((a, b) => a - b)).toEqual([500, 1000, 1000])
    expect([...fake.objects.keys()].some((k) => k.startsWith('stale/'))).toBe(false)
  })

  it('reports per-key DeleteObjects errors, naming the keys and the target', async () => {
    fake.objects.set('old-a.js', { body: Buffer.from('a'), headers: {}, etag: '"a"' })
    fake.objects.set('old-b.js', { body: Buffer.from('b'), headers: {}, etag: '"b"' })
    fake.undeletable.add('old-b.js')
    await expect(deploy({ dir: site.root, target: target(), delete: true })).rejects.toThrow(
      /s3:\/\/site\/ \(endpoint http:\/\/127\.0\.0\.1:\d+\): 1 of 2 deletions failed: old-b\.js \(AccessDenied: Access Denied\.\)\. Rerun the deploy to retry\./,
    )
    expect(fake.objects.has('old-a.js')).toBe(false)
  })
})
