// What MinIO will not do on demand: throttling answers (retries with back-off), per-key errors in
// DeleteObjects, and thousands of stale keys (batches of 1000). A minimal path-style S3 on
// node:http stands in for the store.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, type DeployEvent, type S3RequestRecord } from '@preencode/deploy'
import { siteObjects } from '../src/plan/plan.js'
import { s3Target } from '@preencode/deploy/s3'
import { makeSite } from './helpers.js'

interface Stored {
  body: Buffer
  headers: Record<string, string>
  etag: string
}

class FakeS3 {
  objects = new Map<string, Stored>()
  /** Keys whose next N PUTs answer 503 SlowDown. */
  throttle = new Map<string, number>()
  /** Keys DeleteObjects refuses with AccessDenied. */
  undeletable = new Set<string>()
  deleteBatches: number[] = []
  server: Server
  constructor() {
    this.server = createServer((req, res) => {
      void this.handle(req).then(({ status, headers, body }) => res.writeHead(status, headers).end(body))
    })
  }
  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r))
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`
  }
  private async handle(
    req: IncomingMessage,
  ): Promise<{ status: number; headers: Record<string, string>; body?: string | Buffer }> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    const url = new URL(req.url!, 'http://x')
    const [, bucket, ...rest] = url.pathname.split('/')
    const key = decodeURIComponent(rest.join('/'))
    const xml = { 'content-type': 'application/xml' }
    if (bucket !== 'site')
      return { status: 404, headers: xml, body: '<Error><Code>NoSuchBucket</Code><Message>no</Message></Error>' }
    if (req.method === 'GET' && !key && url.searchParams.get('list-type') === '2') {
      const prefix = url.searchParams.get('prefix') ?? ''
      const keys = [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort()
      const start = Number(url.searchParams.get('continuation-token') ?? 0)
      const page = keys.slice(start, start + 1000)
      const truncated = start + 1000 < keys.length
      const contents = page
        .map(
          (k) =>
            `<Contents><Key>${k}</Key><Size>${this.objects.get(k)!.body.length}</Size><ETag>${this.objects.get(k)!.etag}</ETag></Contents>`,
        )
        .join('')
      return {
        status: 200,
        headers: xml,
        body: `<ListBucketResult><IsTruncated>${truncated}</IsTruncated>${truncated ? `<NextContinuationToken>${start + 1000}</NextContinuationToken>` : ''}${contents}</ListBucketResult>`,
      }
    }
    if (req.method === 'POST' && url.searchParams.has('delete')) {
      const keys = [...body.toString().matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]!)
      this.deleteBatches.push(keys.length)
      const errors = keys.filter((k) => this.undeletable.has(k))
      for (const k of keys) if (!this.undeletable.has(k)) this.objects.delete(k)
      return {
        status: 200,
        headers: xml,
        body: `<DeleteResult>${errors.map((k) => `<Error><Key>${k}</Key><Code>AccessDenied</Code><Message>Access Denied.</Message></Error>`).join('')}</DeleteResult>`,
      }
    }
    if (req.method === 'PUT' && key) {
      const left = this.throttle.get(key) ?? 0
      if (left > 0) {
        this.throttle.set(key, left - 1)
        return {
          status: 503,
          headers: xml,
          body: '<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
        }
      }
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && /^(content-type|content-encoding|cache-control|x-amz-meta-)/.test(name))
          headers[name] = value
      const etag = `"${this.objects.size.toString(16)}-${body.length}"`
      this.objects.set(key, { body, headers, etag })
      return { status: 200, headers: { etag } }
    }
    const object = this.objects.get(key)
    if (!object)
      return { status: 404, headers: xml, body: '<Error><Code>NoSuchKey</Code><Message>no</Message></Error>' }
    if (req.method === 'HEAD')
      return {
        status: 200,
        headers: { ...object.headers, etag: object.etag, 'content-length': String(object.body.length) },
      }
    return { status: 200, headers: { ...object.headers, etag: object.etag }, body: object.body }
  }
}

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
