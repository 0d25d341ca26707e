// `preencode serve` under abuse (issue 35): only the site's own files — symlinks out of the site
// and manifest paths out of it give 404 over HTTP/1.1 and HTTP/2, a link inside is served; a Host
// holding path characters gets 400; a file cut short while sent ends its connection; an empty
// --host and a --cert that never ends (/dev/zero) stop with one line.
import { execFileSync } from 'node:child_process'
import { mkdir, open, symlink, truncate, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { connect as h2connect } from 'node:http2'
import { connect } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { MANIFEST_FILENAME, type Manifest, readManifest } from '@preencode/core'
import { runCollected, type StartedPreencodeServe, startPreencodeServe, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = process.env.PREENCODE_TEST_BIN ?? resolve(import.meta.dirname, '../../dist/bin.js')
const SECRET = 'TOP SECRET: a file outside the site\n'
const PAGE = `<!doctype html><title>home</title>\n${'<p>the page of the site</p>\n'.repeat(60)}`
const EVIL = `evil.txt is a file of the site\n${'plain words of the site\n'.repeat(60)}`
/** Out of the site: each must be 404, however it is asked for. */
const OUTSIDE = ['/link-file.txt', '/linkdir/inner.txt', '/sibl/secret.txt', '/linkdir/', '/linkdir']
/** A sparse file far larger than the socket buffers, so it is still being sent when it is cut. */
const BIG_BYTES = 64 * 1024 * 1024

let work: Awaited<ReturnType<typeof tempDir>>
let site: string
let http: StartedPreencodeServe
let https: StartedPreencodeServe | undefined

interface Got {
  status: number
  encoding: unknown
  body: string
}

const cli = (args: string[]) =>
  runCollected(process.execPath, [BIN, ...args], { cwd: work.path, env: { ...process.env, NO_COLOR: '1' } })

async function write(path: string, contents: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, contents)
}

function get1(url: string, path: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((done, fail) => {
    const req = request(new URL(path, url), { headers, agent: false }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => {
        body += c.toString('latin1')
      })
      res.on('end', () => done({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], body }))
    })
    req.on('error', fail)
    req.end()
  })
}

function get2(url: string, path: string, headers: Record<string, string> = {}): Promise<Got> {
  const session = h2connect(url, { rejectUnauthorized: false })
  return new Promise<Got>((done, fail) => {
    const stream = session.request({ ':path': path, ...headers })
    let head: Record<string, unknown> = {}
    let body = ''
    stream.on('response', (h) => {
      head = h
    })
    stream.on('data', (c: Buffer) => {
      body += c.toString('latin1')
    })
    stream.on('end', () => done({ status: Number(head[':status']), encoding: head['content-encoding'], body }))
    stream.on('error', fail)
  }).finally(() => session.close())
}

beforeAll(async () => {
  work = await tempDir('cli-serve-safety')
  await write(join(work.path, 'outside/secret.txt'), SECRET)
  await write(join(work.path, 'outside/dir/inner.txt'), SECRET)
  await write(join(work.path, 'outside/dir/index.html'), SECRET)
  await write(join(work.path, 'sibling/secret.txt'), SECRET)
  await write(join(work.path, 'victim/secret.txt'), SECRET)
  await write(join(work.path, 'victim/fake.br'), SECRET)
  site = join(work.path, 'dist')
  await write(join(site, 'index.html'), PAGE)
  await write(join(site, 'evil.txt'), EVIL)
  await write(join(site, 'inside.txt'), 'a file of the site, linked from inside\n')
  expect((await cli(['compress', 'dist', '--quiet', '--no-cache'])).code).toBe(0)
  // The links a user adds after the build, and a manifest edited to name files out of the site.
  await symlink(join(work.path, 'outside/secret.txt'), join(site, 'link-file.txt'))
  await symlink(join(work.path, 'outside/dir'), join(site, 'linkdir'))
  await symlink('../sibling', join(site, 'sibl'))
  await symlink('inside.txt', join(site, 'link-inside.txt'))
  const manifest: Manifest = await readManifest(site)
  const evil = manifest.files.find((f) => f.path === 'evil.txt')!
  evil.variants = [{ format: 'gzip', encoding: 'gzip', path: '../victim/secret.txt', size: 10, sha256: 'a'.repeat(64) }]
  const page = manifest.files.find((f) => f.path === 'index.html')!
  page.variants.unshift({
    format: 'brotli',
    encoding: 'br',
    path: '../victim/fake.br',
    size: 5,
    sha256: 'b'.repeat(64),
  })
  await writeFile(join(site, MANIFEST_FILENAME), JSON.stringify(manifest))
  http = await startPreencodeServe(site)
  const key = join(work.path, 'key.pem')
  const cert = join(work.path, 'cert.pem')
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
        ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'],
      ],
      { stdio: 'ignore' },
    )
    https = await startPreencodeServe(site, ['--cert', cert, '--key', key])
  } catch {
    https = undefined
  }
}, 60_000)
afterAll(async () => {
  await http?.stop()
  await https?.stop()
  await work.remove()
})

describe('preencode serve sends only the files of the site', () => {
  it.for(['HTTP/1.1', 'HTTP/2'] as const)(
    '%s: symlinks and manifest paths out of the site give 404 or the original',
    async (protocol, context) => {
      const server = protocol === 'HTTP/1.1' ? http : https
      if (!server) return context.skip()
      const ask = (path: string, headers?: Record<string, string>) =>
        protocol === 'HTTP/1.1' ? get1(server.url, path, headers) : get2(server.url, path, headers)
      for (const path of OUTSIDE)
        for (const accept of ['identity', 'gzip, br, zstd']) {
          const got = await ask(path, { 'accept-encoding': accept })
          expect(got.status, `${path} (${accept})`).toBe(404)
          expect(got.body).not.toContain('TOP SECRET')
        }
      expect((await ask('/link-inside.txt')).body).toBe('a file of the site, linked from inside\n')
      for (const accept of ['gzip', 'br', 'gzip, deflate, br, zstd']) {
        const evil = await ask('/evil.txt', { 'accept-encoding': accept })
        expect([evil.status, evil.encoding, evil.body]).toEqual([200, undefined, EVIL])
        const page = await ask('/', { 'accept-encoding': accept })
        expect([page.status, page.encoding, page.body]).toEqual([200, undefined, PAGE])
      }
      // Said once, on stderr, by the server that read the manifest.
      const said = server
        .logs()
        .split('\n')
        .filter((line) => line.includes('out of the site'))
      expect(said).toHaveLength(1)
      expect(said[0]).toContain('../victim/secret.txt')
    },
  )

  it('a Host holding path characters gets 400; the request line alone names the file', async () => {
    for (const host of ['127.0.0.1/about/#', 'x/evil.txt?', 'a@b'])
      expect((await get1(http.url, '/index.html', { host })).status, host).toBe(400)
    expect((await get1(http.url, '/index.html', { host: 'example.test:80' })).status).toBe(200)
  })

  it('a file cut short while sent ends its connection: the next request on it is not answered', async () => {
    const big = join(site, 'big.bin')
    const file = await open(big, 'w')
    await file.truncate(BIG_BYTES)
    await file.close()
    const { port } = new URL(http.url)
    const socket = connect(Number(port), '127.0.0.1')
    let received = ''
    let statusLines = 0
    let cut = false
    const closed = new Promise<void>((done) => socket.on('close', () => done()))
    socket.on('data', (chunk: Buffer) => {
      if (received.length < 4096) received += chunk.toString('latin1', 0, Math.min(chunk.length, 4096))
      for (let at = chunk.indexOf('HTTP/1.1 '); at !== -1; at = chunk.indexOf('HTTP/1.1 ', at + 1)) statusLines++
      if (!cut && received.includes('\r\n\r\n')) {
        cut = true
        socket.pause()
        void truncate(big, 1024).then(() => socket.resume())
      }
    })
    // Two requests pipelined: the second is answered only if the first ends as if it were whole.
    socket.write(
      'GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /inside.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    )
    await closed
    expect(received).toMatch(/^HTTP\/1\.1 200 /)
    expect(received).toContain(`content-length: ${BIG_BYTES}`)
    expect(statusLines).toBe(1)
  })
})

describe('preencode serve: the options that would listen everywhere or read forever', () => {
  it('refuses an empty --host and a --cert that is not a PEM-sized file, in one line', async () => {
    const cases: [string[], string][] = [
      [['serve', 'dist', '--port', '0', '--host', ''], 'serve: --host is empty; give an address'],
      [['serve', 'dist', '--port', '0', '--host', ' '], 'serve: --host is empty; give an address'],
      [
        ['serve', 'dist', '--port', '0', '--cert', '/dev/zero', '--key', '/dev/zero'],
        'serve: --cert /dev/zero is over 1 MiB',
      ],
    ]
    for (const [args, expected] of cases) {
      const run = await cli(args)
      expect(run.code, args.join(' ')).toBe(1)
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
      expect(run.stderr, args.join(' ')).toContain(expected)
      expect(run.stdout).toBe('')
    }
  })
})
