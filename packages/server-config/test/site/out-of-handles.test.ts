// Out of file handles (issue 35): the Node middleware and the Fetch handler answer 503 with
// Retry-After for a file that exists, never 404 (or the app's `next()`), and serve it again once
// handles are free. A child process (under `ulimit -n 256`) runs both on the built package; on
// `/exhaust` it opens /dev/null until the system says EMFILE, on `/release` it closes them. The
// requests go over one keep-alive connection opened before, so accepting it needs no handle.

import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { compress } from '@preencode/core'
import { REPO_ROOT, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BUILT = pathToFileURL(join(REPO_ROOT, 'packages/server-config/dist/index.js')).href
const BIG = randomBytes(256 * 1024)

const CHILD = `
import { createServer } from 'node:http'
import { openSync, closeSync } from 'node:fs'
import { Readable } from 'node:stream'
import { createPreencodeHandler, createPreencodeMiddleware } from ${JSON.stringify(BUILT)}
const [root] = process.argv.slice(2)
const held = []
const control = (req, res) => {
  if (req.url === '/exhaust') {
    try { for (;;) held.push(openSync('/dev/null', 'r')) } catch (error) { res.end(error.code); return true }
  }
  if (req.url === '/release') { for (const fd of held.splice(0)) closeSync(fd); res.end('released'); return true }
  return false
}
const middleware = createPreencodeMiddleware(root)
const handler = createPreencodeHandler(root)
const next = (res) => () => { res.statusCode = 418; res.end('next') }
const servers = {
  middleware: (req, res) => control(req, res) || middleware(req, res, next(res)),
  handler: async (req, res) => {
    if (control(req, res)) return
    const response = await handler(new Request('http://127.0.0.1' + req.url, { headers: req.headers }))
    if (!response) return next(res)()
    res.writeHead(response.status, Object.fromEntries(response.headers))
    if (response.body) Readable.fromWeb(response.body).pipe(res)
    else res.end()
  },
}
const ports = {}
for (const [name, listener] of Object.entries(servers)) {
  const server = createServer(listener)
  await new Promise((done) => server.listen(0, '127.0.0.1', done))
  ports[name] = server.address().port
}
console.log(JSON.stringify(ports))
`

let work: Awaited<ReturnType<typeof tempDir>>
let site: string
let script: string

beforeAll(async () => {
  work = await tempDir('out-of-handles')
  site = join(work.path, 'site')
  await mkdir(site)
  await writeFile(join(site, 'big.bin'), BIG)
  await writeFile(join(site, 'index.html'), `<!doctype html><title>h</title>\n${'<p>page</p>\n'.repeat(100)}`)
  await compress(site, { cache: false })
  script = join(work.path, 'child.mjs')
  await writeFile(script, CHILD)
}, 60_000)
afterAll(async () => {
  await work?.remove()
})

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

function get(agent: Agent, port: number, path: string): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { 'accept-encoding': 'br' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', fail)
    req.end()
  })
}

describe('out of file handles', () => {
  it('the middleware and the Fetch handler answer 503 with Retry-After, never 404, and recover', async () => {
    const child = spawn('sh', ['-c', 'ulimit -n 256 && exec "$0" "$@"', process.execPath, script, site], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString()
    })
    try {
      const ports = await new Promise<Record<'middleware' | 'handler', number>>((done, fail) => {
        child.stdout.on('data', (c: Buffer) => {
          output += c.toString()
          const line = /^\{.*\}$/m.exec(output)?.[0]
          if (line) done(JSON.parse(line) as Record<'middleware' | 'handler', number>)
        })
        child.on('close', (code) => fail(new Error(`the child ended (${String(code)}):\n${output}`)))
      })
      for (const [name, port] of Object.entries(ports)) {
        // One connection, opened (and the manifest read) while handles are free.
        const agent = new Agent({ keepAlive: true, maxSockets: 1 })
        try {
          for (const path of ['/index.html', '/big.bin']) expect((await get(agent, port, path)).status, name).toBe(200)
          expect((await get(agent, port, '/exhaust')).body.toString(), name).toBe('EMFILE')
          for (const path of ['/index.html', '/big.bin']) {
            // Again, right before: a handle the last answer closed late (a busy machine) is taken too.
            expect((await get(agent, port, '/exhaust')).body.toString(), name).toBe('EMFILE')
            const busy = await get(agent, port, path)
            expect(busy.status, `${name} ${path}`).toBe(503)
            expect(busy.headers['retry-after'], name).toBe('1')
            expect(busy.headers['cache-control'], name).toBe('no-store')
          }
          expect((await get(agent, port, '/release')).body.toString(), name).toBe('released')
          const again = await get(agent, port, '/big.bin')
          expect(again.status, name).toBe(200)
          expect(again.body.equals(BIG), name).toBe(true)
        } finally {
          agent.destroy()
        }
      }
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)
})
