// The timeouts of `preencode serve`'s server (src/serve/limits.ts), run in process with short
// values so a test can see them act: a client that stops reading loses its response (HTTP/2: the
// stream reset; HTTP/1.1: the connection closed), an idle HTTP/2 connection is closed, and a
// client that never finishes its headers is closed. The defaults are in docs/cli.md.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { connect, constants } from 'node:http2'
import { connect as netConnect } from 'node:net'
import { join, resolve } from 'node:path'
import { createPreencodeHandler } from '@preencode/server-config'
import { runCollected, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Listening, listen } from '../../src/serve/listener.ts'

const BIN = process.env.PREENCODE_TEST_BIN ?? resolve(import.meta.dirname, '../../dist/bin.js')
/** Larger than loopback's socket buffers, so a client that does not read stalls the server. */
const HUGE_BYTES = 48 * 1024 * 1024
const SHORT = { sendTimeoutMs: 300, idleMs: 600, headersTimeoutMs: 400, requestTimeoutMs: 500, graceMs: 200 }

let work: Awaited<ReturnType<typeof tempDir>>
let site: string
let tls: { cert: Buffer; key: Buffer } | undefined

beforeAll(async () => {
  work = await tempDir('cli-serve-timeouts')
  site = join(work.path, 'dist')
  await mkdir(site, { recursive: true })
  await writeFile(join(site, 'huge.bin'), randomBytes(HUGE_BYTES))
  await writeFile(join(site, 'index.html'), `<!doctype html><title>t</title>\n${'<p>page</p>\n'.repeat(100)}`)
  const run = await runCollected(process.execPath, [BIN, 'compress', 'dist', '--quiet'], { cwd: work.path })
  expect(run.code, run.stderr).toBe(0)
  try {
    const key = join(work.path, 'key.pem')
    const cert = join(work.path, 'cert.pem')
    const subject = ['-subj', '/CN=127.0.0.1', '-days', '1', '-nodes', '-keyout', key, '-out', cert]
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', ...subject], {
      stdio: 'ignore',
    })
    tls = { cert: await readFile(cert), key: await readFile(key) }
  } catch {
    tls = undefined
  }
}, 60_000)
afterAll(async () => {
  await work?.remove()
})

/** Whether a TCP connection from local port `port` (the server's side) is ESTABLISHED (Linux). */
async function established(port: number): Promise<boolean> {
  const table = await readFile('/proc/net/tcp', 'utf8')
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`
  return table.split('\n').some((line) => {
    const [, address, , state] = line.trim().split(/\s+/)
    return address?.endsWith(local) === true && state === '01'
  })
}

async function started(secure: boolean): Promise<Listening> {
  const options = { host: '127.0.0.1', port: 0, limits: SHORT, ...(secure && tls ? { tls } : {}) }
  return listen(createPreencodeHandler(site), options)
}

describe('preencode serve: timeouts', () => {
  it('HTTP/2: a stream that does not read is reset, then the idle connection closed', async (context) => {
    if (!tls) return context.skip('missing on this machine: openssl')
    const server = await started(true)
    try {
      const session = connect(server.url, { rejectUnauthorized: false, settings: { initialWindowSize: 0 } })
      session.on('error', () => {})
      const stream = session.request({ ':path': '/huge.bin' })
      stream.on('error', () => {})
      const status = new Promise<number>((done) => stream.on('response', (h) => done(Number(h[':status']))))
      const reset = new Promise<number>((done) => stream.on('close', () => done(stream.rstCode ?? -1)))
      const closed = new Promise<void>((done) => session.on('close', done))
      expect(await status).toBe(200)
      expect(await reset).toBe(constants.NGHTTP2_CANCEL)
      await closed
      expect(session.destroyed).toBe(true)
    } finally {
      server.destroy()
      await server.close()
    }
  }, 30_000)

  it('HTTP/1.1: a response that is not read ends with its connection; unfinished headers are closed', async () => {
    const server = await started(false)
    const { port } = new URL(server.url)
    try {
      const stalled = netConnect(Number(port), '127.0.0.1')
      stalled.write('GET /huge.bin HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n')
      stalled.pause()
      stalled.on('error', () => {})
      // Reads nothing until the server gave up (its side of the connection left ESTABLISHED),
      // then takes what it had sent: less than the file.
      await new Promise<void>((done) => stalled.once('connect', done))
      while (await established(Number(port))) await new Promise((r) => setTimeout(r, 50))
      let got = 0
      stalled.on('data', (c: Buffer) => {
        got += c.length
      })
      await new Promise<void>((done) => {
        stalled.once('close', () => done())
        stalled.resume()
      })
      expect(got).toBeLessThan(HUGE_BYTES)

      const slow = netConnect(Number(port), '127.0.0.1')
      slow.write('GET /index.html HTTP/1.1\r\nHost: x\r\n')
      let answer = ''
      slow.on('data', (c: Buffer) => {
        answer += c.toString()
      })
      await new Promise<void>((done) => slow.once('close', () => done()).on('error', () => {}))
      expect(answer).not.toMatch(/^HTTP\/1\.1 200/)
    } finally {
      server.destroy()
      await server.close()
    }
  }, 30_000)
})
