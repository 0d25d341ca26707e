// The Fetch handler under Bun.serve with slow readers (issue 35): 12 clients ask for a 32 MB file
// and read nothing after the headers. Bun sends a `Bun.file` body with sendfile, so the server's
// memory stays flat; reading bodies whole took it to file size × readers. Then every reader takes
// its body: the bytes equal the file's, Content-Length kept. Runs the e2e harness's Bun script
// (e2e/harness/runtimes/bun-serve.mjs) on the built package, as the e2e projects do.
import { createHash, randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { compress } from '@preencode/core'
import { freePort, REPO_ROOT, type RunningProcess, runtimeBinary, startProcess, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const FILE_BYTES = 32 * 1024 * 1024
const READERS = 12
const HARNESS = join(REPO_ROOT, 'e2e/harness/runtimes')
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex')

let work: Awaited<ReturnType<typeof tempDir>>
let file: Buffer

beforeAll(async () => {
  work = await tempDir('bun-slow-readers')
  file = randomBytes(FILE_BYTES)
  await writeFile(join(work.path, 'big.bin'), file)
  await compress(work.path, { cache: false })
}, 60_000)
afterAll(async () => {
  await work?.remove()
})

/** The resident memory of a process, in bytes (Linux). */
async function rss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) * 1024
}

/** A client that asks for `/big.bin` and stops reading once the headers are in. */
function slowReader(port: number): Promise<{ socket: Socket; head: string; rest: Buffer[] }> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1')
    socket.on('error', fail)
    let received = Buffer.alloc(0)
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk])
      const end = received.indexOf('\r\n\r\n')
      if (end < 0) return
      socket.pause()
      socket.off('data', onData)
      done({ socket, head: received.subarray(0, end).toString(), rest: [received.subarray(end + 4)] })
    }
    socket.on('data', onData)
    socket.write('GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n')
  })
}

describe('the Fetch handler on Bun: slow readers', () => {
  it(`keeps memory flat with ${READERS} slow readers of a ${FILE_BYTES / 2 ** 20} MB file, then sends every byte`, async (context) => {
    const bun = runtimeBinary('bun', pathToFileURL(join(REPO_ROOT, 'e2e', 'x.js')).href)
    if ('missing' in bun) return context.skip(`missing on this machine: ${bun.missing}`)
    const port = await freePort()
    let server: RunningProcess | undefined
    const readers: Awaited<ReturnType<typeof slowReader>>[] = []
    try {
      server = await startProcess(
        'bun-serve',
        bun.path,
        ['run', join(HARNESS, 'bun-serve.mjs'), work.path, String(port)],
        {
          port,
          cwd: HARNESS,
          env: { BUN_DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1', NO_COLOR: '1' },
        },
      )
      const pid = server.child.pid!
      // One whole answer first, so what a first request loads is not counted as growth.
      const first = await slowReader(port)
      first.socket.destroy()
      const before = await rss(pid)
      for (let i = 0; i < READERS; i++) readers.push(await slowReader(port))
      const grown = (await rss(pid)) - before
      for (const reader of readers) {
        expect(reader.head).toMatch(/^HTTP\/1\.1 200/)
        expect(reader.head).toMatch(new RegExp(`^content-length: ${FILE_BYTES}$`, 'im'))
      }
      // Held whole, the bodies alone would be FILE_BYTES × READERS (384 MB).
      expect(grown).toBeLessThan((FILE_BYTES * READERS) / 8)
      const bodies = await Promise.all(
        readers.map(
          ({ socket, rest }) =>
            new Promise<Buffer>((done, fail) => {
              socket.on('data', (chunk: Buffer) => rest.push(chunk))
              socket.on('end', () => done(Buffer.concat(rest)))
              socket.on('error', fail)
              socket.resume()
            }),
        ),
      )
      for (const body of bodies) expect(sha(body)).toBe(sha(file))
    } finally {
      for (const reader of readers) reader.socket.destroy()
      await server?.stop()
    }
  }, 120_000)
})
