// verifySite against servers that never finish (issue 29): a body that never ends, headers a
// byte at a time, a 10 GB announcement, a slow but correct server past the run's deadline. Each
// runs on loopback and stops with the test; verify must end with one error naming the URL, or
// stop reading a body at the limit the manifest implies. Each test has 30 s (the code before
// issue 29 hung in the first two: their only bound).

import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import { gzipSync } from 'node:zlib'
import type { Manifest } from '@preencode/core'
import { verifySite } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFixtureSite } from '../fixture.js'

let site: { root: string; manifest: Manifest; remove: () => Promise<void> }
const servers: NetServer[] = []
const sockets = new Set<Socket>()

beforeAll(async () => {
  const dir = await tempDir('verify-bounds')
  site = { root: dir.path, manifest: await buildFixtureSite(dir.path), remove: dir.remove }
})
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  for (const server of servers) server.close()
  await site?.remove()
})

/** A raw TCP server on 127.0.0.1 that answers every request with `answer`; its URL. */
async function hostile(answer: (socket: Socket) => void): Promise<string> {
  const server = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
    socket.once('data', () => answer(socket))
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`
}

/** Writes `chunk` every `ms` until the socket closes. */
function drip(socket: Socket, chunk: string | (() => string), ms: number): void {
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer)
    const next = typeof chunk === 'string' ? chunk : chunk()
    if (next === '') return clearInterval(timer)
    socket.write(next)
  }, ms)
  socket.on('close', () => clearInterval(timer))
}

const BOUND = 30_000

describe('verifySite bounds', () => {
  it(
    'stops at the timeout on a body that never ends, with one error naming the URL',
    async () => {
      const url = await hostile((socket) => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n')
        drip(socket, '1\r\nx\r\n', 50)
      })
      const run = verifySite(url, site.manifest, site.root, { timeout: 1, limit: 2 })
      await expect(run).rejects.toThrow(
        /\[verify\] http:\/\/127\.0\.0\.1:\d+\/\S+ \(Accept-Encoding "[^"]*"\): no complete answer within 1 s/,
      )
    },
    BOUND,
  )

  it(
    'stops at the timeout on headers sent a byte at a time',
    async () => {
      const head = 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nx-slow: '
      const url = await hostile((socket) => {
        let at = 0
        drip(socket, () => (at < head.length ? head[at++]! : 'a'), 20)
      })
      const run = verifySite(url, site.manifest, site.root, { timeout: 1, limit: 2 })
      await expect(run).rejects.toThrow(/no complete answer within 1 s \(`timeout`\); stopped/)
    },
    BOUND,
  )

  it(
    'stops reading a 10 GB announced body at the limit the manifest implies',
    async () => {
      let sent = 0
      const chunk = Buffer.alloc(64 * 1024, 'x')
      const url = await hostile((socket) => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 10737418240\r\n\r\n')
        // Bounded here too: the server gives up after 256 MB (an unbounded reader would still be at it).
        const pump = (): void => {
          while (!socket.destroyed && sent < 256 * 1024 * 1024) {
            sent += chunk.byteLength
            if (!socket.write(chunk)) return void socket.once('drain', pump)
          }
          socket.destroy()
        }
        pump()
      })
      const result = await verifySite(url, site.manifest, site.root, {
        limit: 1,
        concurrency: 1,
        probes: [{ header: 'identity', accepts: [] }],
      })
      const largest = Math.max(...site.manifest.files.map((f) => f.size))
      expect(result.failures.length).toBeGreaterThan(0)
      expect(result.failures[0]!.problems.join('\n')).toMatch(
        /body longer than \d+ bytes, stopped reading \(the manifest's file is \d+ bytes\)/,
      )
      // Well short of what the server would send: the reader stopped at the file's size plus its margin.
      expect(sent).toBeLessThan(largest + 32 * 1024 * 1024)
    },
    BOUND,
  )

  it(
    'stops decoding a small body that inflates past the limit (decoded as it arrives)',
    async () => {
      const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024))
      const url = await hostile((socket) => {
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-encoding: gzip\r\nvary: Accept-Encoding\r\ncontent-length: ${bomb.byteLength}\r\n\r\n`,
        )
        socket.end(bomb)
      })
      const result = await verifySite(url, site.manifest, site.root, {
        limit: 1,
        concurrency: 1,
        probes: [{ header: 'gzip', accepts: ['gzip'] }],
      })
      expect(result.failures[0]!.problems.join('\n')).toMatch(
        /body does not decode as gzip: decoded body longer than \d+ bytes/,
      )
    },
    BOUND,
  )

  it(
    'stops at the deadline a slow but correct server runs past',
    async () => {
      const url = await hostile((socket) => {
        setTimeout(() => socket.destroyed || socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n'), 400)
      })
      const run = verifySite(url, site.manifest, site.root, { deadline: 1, concurrency: 1 })
      await expect(run).rejects.toThrow(
        /http:\/\/127\.0\.0\.1:\d+\/: not finished within the deadline of 1 s \(`deadline`\)/,
      )
    },
    BOUND,
  )
})
