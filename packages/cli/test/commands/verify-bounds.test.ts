// `preencode verify` against a server whose answers never end (issue 29): the real binary must
// stop at its timeout, set by --timeout or by the config file's verify section, with exit 1 and
// one line naming the URL. The server is on loopback; each run is killed after 60 s at most.
import { spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { createServer, type Socket } from 'node:net'
import { join, resolve } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = resolve(import.meta.dirname, '../../dist/bin.js')

interface Run {
  status: number | null
  stderr: string
}

function cli(args: string[], cwd: string): Promise<Run> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', CI: '', XDG_CACHE_HOME: join(cwd, 'user-cache') },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (status) => {
      clearTimeout(timer)
      done({ status, stderr })
    })
  })
}

const sockets = new Set<Socket>()
/** Answers the first request on a connection with headers, then one body byte every 50 ms, forever. */
const server = createServer((socket) => {
  sockets.add(socket)
  socket.on('error', () => {})
  socket.on('close', () => sockets.delete(socket))
  socket.once('data', () => {
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n')
    const timer = setInterval(() => socket.destroyed || socket.write('1\r\nx\r\n'), 50)
    socket.on('close', () => clearInterval(timer))
  })
})
let url = ''
let work: { path: string; remove: () => Promise<void> }
let site = ''

beforeAll(async () => {
  work = await tempDir('cli-verify-bounds')
  site = join(work.path, 'dist')
  await mkdir(site)
  await writeFile(join(site, 'index.html'), `<!doctype html><title>t</title>${'<p>never ending</p>\n'.repeat(200)}`)
  expect((await cli(['compress', site, '--quiet'], work.path)).status).toBe(0)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`
})
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  server.close()
  await work?.remove()
})

const oneLine = (run: Run): string[] => run.stderr.trim().split('\n')

describe('preencode verify against an answer that never ends', () => {
  it('--timeout: exit 1 and one line naming the URL', async () => {
    const run = await cli(['verify', url, site, '--timeout', '1'], work.path)
    expect(run.status).toBe(1)
    expect(oneLine(run)).toHaveLength(1)
    expect(run.stderr).toMatch(
      /http:\/\/127\.0\.0\.1:\d+\/\S* \(Accept-Encoding "[^"]*"\): no complete answer within 1 s \(--timeout\)/,
    )
  }, 90_000)

  it('verify.timeout in the config file does the same; a bad value is one line naming it', async () => {
    const cwd = join(work.path, 'with-config')
    await mkdir(cwd, { recursive: true })
    await writeFile(join(cwd, 'preencode.config.json'), JSON.stringify({ verify: { timeout: 1, deadline: 30 } }))
    const run = await cli(['verify', url, site], cwd)
    expect(run.status).toBe(1)
    expect(oneLine(run)).toHaveLength(1)
    // Named as it was set: the file's key, not a flag the user never typed.
    expect(run.stderr).toMatch(/no complete answer within 1 s \(`verify\.timeout` in \S+preencode\.config\.json\)/)
    await writeFile(join(cwd, 'preencode.config.json'), JSON.stringify({ verify: { timeout: 'soon' } }))
    const bad = await cli(['verify', url, site], cwd)
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(
      /`verify\.timeout` in \S+preencode\.config\.json must be a number of seconds > 0; got "soon"/,
    )
    const flag = await cli(['verify', url, site, '--deadline', '0'], work.path)
    expect(flag.stderr).toMatch(/--deadline must be a number of seconds > 0/)
  }, 90_000)
})
