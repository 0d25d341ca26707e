// `preencode serve` under abuse (issue 35): the built binary, started under `ulimit -n 600` where
// file handles matter. One HTTP/2 connection with 700 streams that never read leaves the others
// answered and gets no 404 for a file that exists; when handles run out the answer is 503 with
// Retry-After, and serving recovers; SIGTERM lets a download in flight finish.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { get as httpGet } from 'node:http'
import { type ClientHttp2Session, connect } from 'node:http2'
import { get as httpsGet } from 'node:https'
import { join, resolve } from 'node:path'
import { runCollected, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = process.env.PREENCODE_TEST_BIN ?? resolve(import.meta.dirname, '../../dist/bin.js')
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex')
/** Held open by a stalled stream: larger than what is read in one piece (64 KiB). */
const BIG = randomBytes(1024 * 1024)
/** The download SIGTERM must not cut. */
const HUGE_BYTES = 60 * 1024 * 1024

let work: Awaited<ReturnType<typeof tempDir>>
let site: string
let tls: { cert: string; key: string } | undefined
let huge: Buffer

interface Child {
  url: string
  output: () => string
  child: ChildProcess
  exited: Promise<number | null>
}

/** `preencode serve` under `ulimit -n <fds>` (a shell sets it, then execs Node). */
function serve(args: string[], fds = 600): Promise<Child> {
  const command = `ulimit -n ${fds} && exec "$0" "$@"`
  const child = spawn('sh', ['-c', command, process.execPath, BIN, 'serve', site, '--port', '0', ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
  return new Promise((done, fail) => {
    const seen = (chunk: Buffer): void => {
      output += chunk.toString()
      const url = /^preencode serve: (\S+) /m.exec(output)?.[1]
      if (url) done({ url, output: () => output, child, exited })
    }
    child.stdout.on('data', seen)
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    void exited.then((code) => fail(new Error(`preencode serve ended (exit ${String(code)}):\n${output}`)))
  })
}

async function stop(server: Child): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  return server.exited
}

/** Opens `count` streams for `path` that never read (zero window); resolves the statuses of those answered. */
function stalled(
  session: ClientHttp2Session,
  path: string,
  count: number,
): { statuses: number[]; retryAfter: string[] } {
  const seen = { statuses: [] as number[], retryAfter: [] as string[] }
  for (let i = 0; i < count; i++) {
    const stream = session.request({ ':path': path, 'accept-encoding': 'identity' })
    stream.on('response', (headers) => {
      seen.statuses.push(Number(headers[':status']))
      if (headers['retry-after'] !== undefined) seen.retryAfter.push(String(headers['retry-after']))
    })
    stream.on('error', () => {})
  }
  return seen
}

function h2Session(url: string): Promise<ClientHttp2Session> {
  const session = connect(url, { rejectUnauthorized: false, settings: { initialWindowSize: 0 } })
  session.on('error', () => {})
  return new Promise((done, fail) => {
    session.once('remoteSettings', () => done(session))
    session.once('error', fail)
  })
}

/** Waits for `check` (50 ms steps, 40 s at most). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 800) throw new Error('waited 40 s in vain')
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** The error code of a connection attempt (undefined when it connects). */
function connectError(url: string): Promise<string | undefined> {
  return new Promise((done) => {
    httpGet(url, { agent: false }, (res) => {
      res.resume()
      done(undefined)
    }).on('error', (error: NodeJS.ErrnoException) => done(error.code))
  })
}

/** GET over HTTPS/1.1 (the answer's status and bytes). */
function fetchInsecure(url: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((done, fail) => {
    const req = httpsGet(
      url,
      { rejectUnauthorized: false, agent: false, headers: { 'accept-encoding': 'identity' } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
        res.on('error', fail)
      },
    )
    req.on('error', fail)
  })
}

beforeAll(async () => {
  work = await tempDir('cli-serve-limits')
  site = join(work.path, 'dist')
  await mkdir(site, { recursive: true })
  await writeFile(join(site, 'index.html'), `<!doctype html><title>limits</title>\n${'<p>page</p>\n'.repeat(200)}`)
  await writeFile(join(site, 'big.bin'), BIG)
  huge = randomBytes(HUGE_BYTES)
  await writeFile(join(site, 'huge.bin'), huge)
  const run = await runCollected(process.execPath, [BIN, 'compress', 'dist', '--quiet'], { cwd: work.path })
  expect(run.code, run.stderr).toBe(0)
  try {
    const key = join(work.path, 'key.pem')
    const cert = join(work.path, 'cert.pem')
    const subject = ['-subj', '/CN=127.0.0.1', '-days', '1', '-nodes', '-keyout', key, '-out', cert]
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', ...subject], {
      stdio: 'ignore',
    })
    tls = { cert, key }
  } catch {
    tls = undefined
  }
}, 60_000)
afterAll(async () => {
  await work?.remove()
})

describe('preencode serve: every client bounded', () => {
  it('700 stalled HTTP/2 streams under ulimit -n 600 leave another client answered, and no 404', async (context) => {
    if (!tls) return context.skip('missing on this machine: openssl')
    const server = await serve(['--cert', tls.cert, '--key', tls.key])
    const sessions: ClientHttp2Session[] = []
    try {
      const session = await h2Session(server.url)
      sessions.push(session)
      const seen = stalled(session, '/big.bin', 700)
      // Every stream the server takes at once is answered: all 700 without a limit.
      const taken = Math.min(700, session.remoteSettings.maxConcurrentStreams ?? 700)
      await until(() => seen.statuses.length >= taken)
      const other = await fetchInsecure(`${server.url}big.bin`)
      expect(other.status).toBe(200)
      expect(sha(other.body)).toBe(sha(BIG))
      expect(seen.statuses.filter((s) => s === 404)).toEqual([])
      expect(new Set(seen.statuses)).toEqual(new Set([200]))
    } finally {
      for (const session of sessions) session.destroy()
      await stop(server)
    }
  }, 60_000)

  it('answers 503 with Retry-After when file handles run out (never 404), and recovers', async (context) => {
    if (!tls) return context.skip('missing on this machine: openssl')
    const server = await serve(['--cert', tls.cert, '--key', tls.key])
    const sessions: ClientHttp2Session[] = []
    try {
      expect((await fetchInsecure(`${server.url}big.bin`)).status).toBe(200)
      // Seven connections of 100 streams each: more handles than the process may open.
      for (let i = 0; i < 7; i++) sessions.push(await h2Session(server.url))
      const seen = sessions.map((session) => stalled(session, '/big.bin', 100))
      const all = () => seen.flatMap((s) => s.statuses)
      await until(() => all().length >= 700)
      expect(all().filter((s) => s !== 200 && s !== 503)).toEqual([])
      expect(all()).toContain(503)
      expect(new Set(seen.flatMap((s) => s.retryAfter))).toEqual(new Set(['1']))
      for (const session of sessions) session.destroy()
      let again: { status: number; body: Buffer } = { status: 0, body: Buffer.alloc(0) }
      for (let i = 0; i < 100 && again.status !== 200; i++) {
        again = await fetchInsecure(`${server.url}big.bin`).catch(() => again)
        if (again.status !== 200) await new Promise((r) => setTimeout(r, 100))
      }
      expect(again.status).toBe(200)
      expect(sha(again.body)).toBe(sha(BIG))
    } finally {
      for (const session of sessions) session.destroy()
      await stop(server)
    }
  }, 60_000)

  it('lets a 60 MB download in flight finish on SIGTERM, refuses new connections, and exits 0', async () => {
    const server = await serve([])
    let refused: string | undefined
    try {
      const body = await new Promise<Buffer>((done, fail) => {
        httpGet(`${server.url}huge.bin`, { agent: false }, (res) => {
          const chunks: Buffer[] = []
          res.once('data', (first: Buffer) => {
            chunks.push(first)
            res.pause()
            server.child.kill('SIGTERM')
            void until(() => /stopping/.test(server.output()))
              .then(() => connectError(`${server.url}index.html`))
              .then((code) => {
                refused = code
                res.on('data', (c: Buffer) => chunks.push(c))
                res.resume()
              }, fail)
          })
          res.on('end', () => done(Buffer.concat(chunks)))
          res.on('error', fail)
        }).on('error', fail)
      })
      expect(body.length).toBe(HUGE_BYTES)
      expect(sha(body)).toBe(sha(huge))
      expect(refused).toBe('ECONNREFUSED')
      expect(await server.exited).toBe(0)
    } finally {
      await stop(server)
    }
  }, 60_000)
})
