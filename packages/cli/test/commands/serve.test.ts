// `preencode serve` as users run it: the built binary on a free 127.0.0.1 port, asked with
// Node's fetch (which decodes) and raw node:http (which does not): the bytes on the wire are the
// stored variant, they decode to the original; and what users get wrong ends with one line.

import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { type Manifest, readManifest } from '@preencode/core'
import { runCollected, type StartedPreencodeServe, startPreencodeServe, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = process.env.PREENCODE_TEST_BIN ?? resolve(import.meta.dirname, '../../dist/bin.js')
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex')
const script = Array.from({ length: 400 }, (_, i) => `export const v${i} = 'value ${i % 17}'\n`).join('')

let work: Awaited<ReturnType<typeof tempDir>>
let site: string
let manifest: Manifest
let server: StartedPreencodeServe

function raw(
  url: string,
  headers: Record<string, string>,
  path?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((done, fail) => {
    const req = request(url, { headers, agent: false, ...(path === undefined ? {} : { path }) }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', fail)
    req.end()
  })
}

const cli = (args: string[]) =>
  runCollected(process.execPath, [BIN, ...args], { cwd: work.path, env: { ...process.env, NO_COLOR: '1' } })

beforeAll(async () => {
  work = await tempDir('cli-serve')
  site = join(work.path, 'dist')
  await mkdir(join(site, 'assets'), { recursive: true })
  await writeFile(
    join(site, 'index.html'),
    `<!doctype html><title>serve</title>\n${'<p>a page that compresses</p>\n'.repeat(40)}`,
  )
  await writeFile(join(site, 'assets/app-Ab3dEf9h.js'), script)
  expect((await cli(['compress', 'dist', '--quiet'])).code).toBe(0)
  manifest = await readManifest(site)
  server = await startPreencodeServe(site)
})
afterAll(async () => {
  await server?.stop()
  await work.remove()
})

describe('preencode serve', () => {
  it('says in one line where and what it serves, on 127.0.0.1 by default', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(server.logs()).toMatch(
      /^preencode serve: http:\/\/127\.0\.0\.1:\d+\/ serves .*dist \(2 files\); Ctrl\+C stops\n$/,
    )
  })

  it('sends the stored variant as it is, with the headers of the specification', async () => {
    const js = manifest.files.find((f) => f.path === 'assets/app-Ab3dEf9h.js')!
    for (const coding of ['br', 'zstd', 'gzip'] as const) {
      const res = await raw(`${server.url}assets/app-Ab3dEf9h.js`, { 'accept-encoding': coding })
      const variant = js.variants.find((v) => v.encoding === coding)!
      expect(res.status).toBe(200)
      expect(res.headers['content-encoding']).toBe(coding)
      expect(res.body.equals(await readFile(join(site, variant.path))), coding).toBe(true)
      expect(res.headers['content-length']).toBe(String(variant.size))
      expect(res.headers.vary).toBe('Accept-Encoding')
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    }
  })

  it("answers Node's fetch: decoded, the original's bytes; 304; a range; 404 and 405 for what is not the site's", async () => {
    const page = manifest.files.find((f) => f.path === 'index.html')!
    const res = await fetch(server.url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe(page.variants[0]!.encoding)
    expect(sha(new Uint8Array(await res.arrayBuffer()))).toBe(page.sha256)
    const again = await fetch(server.url, {
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd', 'if-none-match': res.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
    const part = await fetch(server.url, { headers: { 'accept-encoding': 'identity', range: 'bytes=0-14' } })
    expect(part.status).toBe(206)
    expect(await part.text()).toBe('<!doctype html>')
    expect((await fetch(`${server.url}missing.js`)).status).toBe(404)
    expect((await fetch(`${server.url}.preencode-manifest.json`)).status).toBe(404)
    // A proxy's absolute-form target is read by its path, not taken for `/`.
    const absolute = await raw(
      server.url,
      { 'accept-encoding': 'identity' },
      `http://example.test/assets/app-Ab3dEf9h.js`,
    )
    expect(absolute.status).toBe(200)
    expect(absolute.body.toString()).toBe(script)
    const post = await fetch(server.url, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
  })

  it('serves HTTPS with HTTP/2 given --cert and --key', async (context) => {
    const key = join(work.path, 'key.pem')
    const cert = join(work.path, 'cert.pem')
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
        ],
        { stdio: 'ignore' },
      )
    } catch {
      context.skip('missing on this machine: openssl')
    }
    const secure = await startPreencodeServe(site, ['--cert', cert, '--key', key])
    try {
      expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/)
      const { connect } = await import('node:http2')
      const session = connect(secure.url, { rejectUnauthorized: false })
      const answer = await new Promise<{ status: number; encoding: unknown; body: Buffer }>((done, fail) => {
        const stream = session.request({ ':path': '/assets/app-Ab3dEf9h.js', 'accept-encoding': 'zstd' })
        const chunks: Buffer[] = []
        let head: Record<string, unknown> = {}
        stream.on('response', (h) => {
          head = h
        })
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () =>
          done({ status: Number(head[':status']), encoding: head['content-encoding'], body: Buffer.concat(chunks) }),
        )
        stream.on('error', fail)
      })
      session.close()
      expect(answer.status).toBe(200)
      expect(answer.encoding).toBe('zstd')
      expect(answer.body.equals(await readFile(join(site, 'assets/app-Ab3dEf9h.js.zst')))).toBe(true)
    } finally {
      await secure.stop()
    }
  })

  it('stops on SIGTERM with exit code 0', async () => {
    const other = await startPreencodeServe(site)
    expect(await other.stop()).toBe(0)
  })
})

describe('preencode serve: what users get wrong', () => {
  it('ends with one line for a missing folder, a folder not compressed, a port in use, a bad certificate', async () => {
    await mkdir(join(work.path, 'raw'), { recursive: true })
    await writeFile(join(work.path, 'bad.pem'), 'not a certificate\n')
    const busy = createServer()
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done))
    const port = String((busy.address() as { port: number }).port)
    const cases: [string[], RegExp][] = [
      [['serve', 'nope'], /^\[preencode\] \[cli\] serve: nope does not exist/],
      [
        ['serve', 'raw'],
        /^\[preencode\] \[cli\] serve: raw has no \.preencode-manifest\.json; run `preencode compress raw` first\.$/,
      ],
      [
        ['serve', 'dist', '--port', port],
        new RegExp(`^\\[preencode\\] \\[cli\\] serve: port ${port} on 127\\.0\\.0\\.1 is in use`),
      ],
      [
        ['serve', 'dist', '--port', '0', '--cert', 'bad.pem', '--key', 'bad.pem'],
        /^\[preencode\] \[cli\] serve: --cert\/--key cannot be used: /,
      ],
      [['serve', 'dist', '--cert', 'bad.pem'], /--cert and --key go together; --key is missing\.$/],
      [['serve', 'dist', '--port', '70000'], /--port must be 0 to 65535; got 70000\.$/],
      [['serve', 'dist', '--spa', 'maybe'], /serve: --spa is "maybe"; accepted: on, off\.$/],
    ]
    try {
      for (const [args, expected] of cases) {
        const run = await cli(args)
        expect(run.code, args.join(' ')).toBe(1)
        expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
        expect(run.stderr.trim(), args.join(' ')).toMatch(expected)
        expect(run.stdout, args.join(' ')).toBe('')
      }
    } finally {
      busy.close()
    }
  })
})
