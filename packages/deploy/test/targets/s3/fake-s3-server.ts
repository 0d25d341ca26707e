// A minimal path-style S3 on node:http, for what MinIO will not do on demand (throttling, per-key
// errors in DeleteObjects, thousands of keys) and where a whole MinIO is more than a test needs.
// Only the bucket `site` exists: a test puts a shared cache under a prefix of it.
import { createServer, type IncomingMessage, type Server } from 'node:http'

interface Stored {
  body: Buffer
  headers: Record<string, string>
  etag: string
}

export class FakeS3 {
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
