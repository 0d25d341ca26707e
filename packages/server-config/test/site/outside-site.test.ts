// Only the site's own files (issue 35): symlinks that lead out of the site (to a file, a folder,
// `../sibling`) and manifest paths out of it (`../victim/secret.txt` as a variant) are never
// sent, by the Node middleware and the Fetch handler alike; a link that stays inside is served.
// A Host holding path characters is refused (400); a manifest cut short keeps the last good one.
import { mkdir, open, readFile, symlink, truncate, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { connect } from 'node:net'
import { dirname, join } from 'node:path'
import { MANIFEST_FILENAME, type Manifest } from '@preencode/core'
import { cloudflareWorkerFiles, createPreencodeHandler, createPreencodeMiddleware } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compressFixture } from '../fixture.ts'
import { get } from '../node/helpers.ts'

const SECRET = 'TOP SECRET: a file outside the site\n'
const PAGE = `<!doctype html><title>home</title>\n${'<p>the page of the site</p>\n'.repeat(60)}`
const EVIL = `evil.txt is a file of the site\n${'plain words of the site\n'.repeat(60)}`

/** The paths asked for that lead out of the site, and the answer each must never carry. */
const LINKED = ['/link-file.txt', '/linkdir/inner.txt', '/sibl/secret.txt', '/linkdir/', '/root-link/etc/hostname']

let work: Awaited<ReturnType<typeof tempDir>>
/** With a manifest (compress ran before the links were made, as a user adding them later). */
let site: string
/** Without a manifest (what `deploy` writes): every file described from the disk. */
let bare: string
let manifest: Manifest

async function write(path: string, contents: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, contents)
}

async function addLinks(root: string): Promise<void> {
  await symlink(join(work.path, 'outside/secret.txt'), join(root, 'link-file.txt'))
  await symlink(join(work.path, 'outside/dir'), join(root, 'linkdir'))
  await symlink('../sibling', join(root, 'sibl'))
  await symlink('/', join(root, 'root-link'))
  await symlink('inside.txt', join(root, 'link-inside.txt'))
}

beforeAll(async () => {
  work = await tempDir('outside-site')
  await write(join(work.path, 'outside/secret.txt'), SECRET)
  await write(join(work.path, 'outside/dir/inner.txt'), SECRET)
  await write(join(work.path, 'outside/dir/index.html'), SECRET)
  await write(join(work.path, 'sibling/secret.txt'), SECRET)
  await write(join(work.path, 'victim/secret.txt'), SECRET)
  await write(join(work.path, 'victim/fake.br'), SECRET)
  site = join(work.path, 'site')
  bare = join(work.path, 'bare')
  for (const root of [site, bare]) {
    await write(join(root, 'index.html'), PAGE)
    await write(join(root, 'evil.txt'), EVIL)
    await write(join(root, 'inside.txt'), 'a file of the site, linked from inside\n')
  }
  manifest = await compressFixture(site)
  // A manifest edited to name files out of the site, smallest first so they would be chosen.
  const edited: Manifest = structuredClone(manifest)
  const evil = edited.files.find((f) => f.path === 'evil.txt')!
  evil.variants = [{ format: 'gzip', encoding: 'gzip', path: '../victim/secret.txt', size: 10, sha256: 'a'.repeat(64) }]
  const page = edited.files.find((f) => f.path === 'index.html')!
  page.variants.unshift({
    format: 'brotli',
    encoding: 'br',
    path: '../victim/fake.br',
    size: 5,
    sha256: 'b'.repeat(64),
  })
  await writeFile(join(site, MANIFEST_FILENAME), JSON.stringify(edited))
  await addLinks(site)
  await addLinks(bare)
})
afterAll(async () => {
  await work.remove()
})

interface Got {
  status: number
  body: Buffer
  encoding: string | undefined
}

/** The two ways a site is served in Node, each answering `path` (404 when the site has no file). */
function servers(root: string, warnings: string[]) {
  const handler = createPreencodeHandler(root, { onWarning: (m) => warnings.push(m) })
  const middleware = createPreencodeMiddleware(root, { onWarning: (m) => warnings.push(m) })
  let server: Server | undefined
  let port = 0
  return {
    async handler(path: string, headers: Record<string, string> = {}): Promise<Got> {
      const response = await handler(new Request(`http://site.test${path}`, { headers }))
      if (!response) return { status: 404, body: Buffer.alloc(0), encoding: undefined }
      const body = Buffer.from(await response.arrayBuffer())
      return { status: response.status, body, encoding: response.headers.get('content-encoding') ?? undefined }
    },
    async middleware(path: string, headers: Record<string, string> = {}): Promise<Got> {
      if (!server) {
        server = createServer((req, res) =>
          middleware(req, res, () => {
            res.statusCode = 404
            res.end()
          }),
        )
        await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
        port = (server.address() as { port: number }).port
      }
      const res = await get(port, path, headers)
      return { status: res.status, body: res.body, encoding: res.headers['content-encoding'] as string | undefined }
    },
    close: () => new Promise<void>((r) => (server ? server.close(() => r()) : r())),
  }
}

describe.each(['handler', 'middleware'] as const)('the %s sends only the files of the site', (kind) => {
  it.each([
    ['with a manifest', () => site],
    ['without a manifest', () => bare],
  ])('symlinks out of the site are not its files (%s): 404; a link inside is served', async (_, rootOf) => {
    const warnings: string[] = []
    const serve = servers(rootOf(), warnings)
    try {
      for (const path of LINKED)
        for (const accept of ['identity', 'gzip, br, zstd']) {
          const got = await serve[kind](path, { 'accept-encoding': accept })
          expect(got.status, `${path} (${accept})`).toBe(404)
          expect(got.body.toString()).not.toContain('TOP SECRET')
        }
      // No redirect to a folder out of the site either (it would tell that it has an index.html).
      expect((await serve[kind]('/linkdir')).status).toBe(404)
      const inside = await serve[kind]('/link-inside.txt')
      expect(inside.status).toBe(200)
      expect(inside.body.toString()).toBe('a file of the site, linked from inside\n')
    } finally {
      await serve.close()
    }
  })

  it('a manifest naming variants out of the site: never sent; the originals are, with one warning', async () => {
    const warnings: string[] = []
    const serve = servers(site, warnings)
    try {
      for (const accept of ['gzip', 'br', 'gzip, deflate, br, zstd']) {
        const evil = await serve[kind]('/evil.txt', { 'accept-encoding': accept })
        expect(evil.status).toBe(200)
        expect(evil.encoding, accept).toBeUndefined()
        expect(evil.body.toString()).toBe(EVIL)
        const page = await serve[kind]('/', { 'accept-encoding': accept })
        expect(page.status).toBe(200)
        expect(page.encoding, accept).toBeUndefined()
        expect(page.body.toString()).toBe(PAGE)
      }
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain('../victim/secret.txt')
      expect(warnings[0]).toContain('../victim/fake.br')
      expect(warnings[0]).toContain(MANIFEST_FILENAME)
    } finally {
      await serve.close()
    }
  })

  it('a Host with path characters is refused (400), as Deno would read the path from it', async () => {
    const serve = servers(bare, [])
    try {
      for (const host of ['127.0.0.1/about/#', 'x/evil.txt?', 'a b', 'site.test\\x'])
        expect((await serve[kind]('/index.html', { host })).status, host).toBe(400)
      for (const host of ['127.0.0.1:8080', 'site.test', '[::1]:80'])
        expect((await serve[kind]('/index.html', { host })).status, host).toBe(200)
    } finally {
      await serve.close()
    }
  })
})

describe("the Cloudflare Worker's site data", () => {
  it('is not generated from a manifest naming paths out of the site, which it names', async () => {
    const edited = JSON.parse(await readFile(join(site, MANIFEST_FILENAME), 'utf8')) as Manifest
    expect(() => cloudflareWorkerFiles(edited)).toThrow(
      /\.preencode-manifest\.json names "\.\.\/victim\/secret\.txt", a path out of the site; the Worker is not generated from it/,
    )
    expect(() => cloudflareWorkerFiles(manifest)).not.toThrow()
  })
})

describe('a manifest cut short while serving', () => {
  it('keeps the last good manifest, and says so once', async () => {
    const root = join(work.path, 'cut')
    await write(join(root, 'index.html'), PAGE)
    const good = await compressFixture(root)
    const warnings: string[] = []
    const handler = createPreencodeHandler(root, { onWarning: (m) => warnings.push(m) })
    const ask = async () => {
      const response = (await handler(new Request('http://site.test/', { headers: { 'accept-encoding': 'br' } })))!
      return { status: response.status, encoding: response.headers.get('content-encoding') }
    }
    expect(await ask()).toEqual({ status: 200, encoding: 'br' })
    const text = await readFile(join(root, MANIFEST_FILENAME), 'utf8')
    await writeFile(join(root, MANIFEST_FILENAME), text.slice(0, text.length / 2))
    expect(await ask()).toEqual({ status: 200, encoding: 'br' })
    expect(await ask()).toEqual({ status: 200, encoding: 'br' })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /^preencode: still serving by the last manifest read: \S+\.preencode-manifest\.json is not valid JSON/,
    )
    expect(good.files).toHaveLength(1)
  })
})

describe('a file cut short while the middleware sends it', () => {
  it('ends the connection: the request pipelined after it is not answered', async () => {
    const root = join(work.path, 'truncated')
    await write(join(root, 'inside.txt'), 'small\n')
    const big = join(root, 'big.bin')
    const file = await open(big, 'w')
    await file.truncate(64 * 1024 * 1024) // sparse, far larger than the socket buffers
    await file.close()
    const middleware = createPreencodeMiddleware(root)
    const server = createServer((req, res) => middleware(req, res))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const socket = connect((server.address() as { port: number }).port, '127.0.0.1')
      let head = ''
      let statusLines = 0
      const closed = new Promise<void>((done) => socket.on('close', () => done()))
      socket.on('data', (chunk: Buffer) => {
        for (let at = chunk.indexOf('HTTP/1.1 '); at !== -1; at = chunk.indexOf('HTTP/1.1 ', at + 1)) statusLines++
        if (head.includes('\r\n\r\n')) return
        head += chunk.toString('latin1', 0, Math.min(chunk.length, 4096))
        if (!head.includes('\r\n\r\n')) return
        socket.pause()
        void truncate(big, 1024).then(() => socket.resume())
      })
      socket.write(
        'GET /big.bin HTTP/1.1\r\nHost: a\r\n\r\nGET /inside.txt HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
      )
      await closed
      expect(head).toMatch(/^HTTP\/1\.1 200 /)
      expect(statusLines).toBe(1)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
