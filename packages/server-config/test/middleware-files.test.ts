// The Node middleware and files as an experienced sirv / express.static user expects them:
// dotfiles ignored even when the manifest lists them (issue 19, item 5), an If-Modified-Since in
// the future ignored (RFC 9110 §13.1.3).
import { mkdir, writeFile } from 'node:fs/promises'
import { createServer, request, type Server } from 'node:http'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPreencodeMiddleware } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { compressFixture, fixtureFiles } from './fixture.ts'

interface Res {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function serve(root: string): Promise<{ server: Server; port: number }> {
  const middleware = createPreencodeMiddleware(root)
  const server = createServer((req, res) =>
    middleware(req, res, () => {
      res.statusCode = 418
      res.end('next')
    }),
  )
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  return { server, port: typeof address === 'object' && address ? address.port : 0 }
}

async function writeAll(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, contents] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), contents)
  }
}

/** What a site folder holds besides its pages: secrets, our own state, leftovers of a killed run. */
export const DOTFILES: Record<string, string> = {
  '.env': 'SECRET_TOKEN=do-not-serve\n',
  '.preencode-deploy-state.json': JSON.stringify({ version: 1, deploys: [{ keys: ['index.html'] }] }),
  '.preencode-tmp-0123456789ab': 'half a deploy\n',
  'assets/.main-Ab3dEf9h.js.tmp-1234-abcd': 'half a write\n',
  '.git/config': '[core]\n\trepositoryformatversion = 0\n',
  'docs/.secret.json': JSON.stringify({ secret: 'x'.repeat(2000) }),
  '.well-known/.hidden': 'not public\n',
}
const WELL_KNOWN = '.well-known/security.txt'

let dir: Awaited<ReturnType<typeof tempDir>>
let site: { server: Server; port: number; root: string }

beforeAll(async () => {
  dir = await tempDir('middleware-files')
  const root = join(dir.path, 'site')
  await writeAll(root, { ...fixtureFiles(), ...DOTFILES, [WELL_KNOWN]: 'Contact: mailto:security@example.com\n' })
  const manifest = await compressFixture(root)
  // The manifest lists them (a scan lists every file): the middleware must still refuse them.
  expect(manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(Object.keys(DOTFILES)))
  site = { ...(await serve(root)), root }
})
afterAll(async () => {
  site.server.close()
  await dir.remove()
})

describe('dotfiles', () => {
  it('are passed on (not served), encoded or not, with or without a coding; /.well-known/ is served', async () => {
    for (const path of Object.keys(DOTFILES)) {
      for (const url of [`/${path}`, `/${path.replace(/(^|\/)\./, '$1%2e')}`, `/${path}?x=1`]) {
        for (const accept of [undefined, 'gzip, deflate, br, zstd']) {
          const res = await get(site.port, url, accept ? { 'accept-encoding': accept } : {})
          expect(res.status, `${url} ${accept}`).toBe(418)
        }
      }
    }
    expect((await get(site.port, '/about/../.env')).status).toBe(418)
    const wellKnown = await get(site.port, `/${WELL_KNOWN}`)
    expect(wellKnown.status).toBe(200)
    expect(wellKnown.body.toString()).toContain('Contact:')
    // Still 404 from the middleware itself (it was before): the manifest is ours to hide.
    expect((await get(site.port, '/.preencode-manifest.json')).status).toBe(404)
  })
})

describe('If-Modified-Since', () => {
  it('a date in the future is ignored (RFC 9110 §13.1.3); the Last-Modified date still gives 304', async () => {
    const full = await get(site.port, '/data.json', { 'accept-encoding': 'br' })
    expect(full.status).toBe(200)
    const future = new Date(Date.UTC(2999, 0, 1)).toUTCString()
    const res = await get(site.port, '/data.json', { 'accept-encoding': 'br', 'if-modified-since': future })
    expect(res.status).toBe(200)
    expect(res.body.equals(full.body)).toBe(true)
    const since = full.headers['last-modified'] as string
    expect((await get(site.port, '/data.json', { 'accept-encoding': 'br', 'if-modified-since': since })).status).toBe(
      304,
    )
  })
})
