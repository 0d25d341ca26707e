// Only the site's own files, on every runtime the Fetch handler runs on (issue 35): symlinks out
// of the site (a file, a folder, `../sibling`) and manifest paths out of it give 404 or the
// original, never the outside bytes; and a Host holding path characters gets 400 — Deno builds
// `request.url` from Host, so `Host: 127.0.0.1/about/#` would otherwise choose the about page.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { compress, MANIFEST_FILENAME, type Manifest } from '@preencode/core'
import { freePort, tempDir } from '@preencode/test-utils'
import { ONLY } from '../harness/applies.ts'
import { expect, test } from '../harness/fixtures.ts'
import { get } from '../harness/http.ts'
import { isRuntimeKind } from '../harness/runtimes/kinds.ts'
import { startRuntime } from '../harness/runtimes/start.ts'

const SECRET = 'TOP SECRET: a file outside the site\n'
const PAGE = `<!doctype html><title>home</title>\n${'<p>the page of the site</p>\n'.repeat(60)}`
const ABOUT = `<!doctype html><title>about</title>\n${'<p>the about page</p>\n'.repeat(60)}`
const EVIL = `evil.txt is a file of the site\n${'plain words of the site\n'.repeat(60)}`

async function write(path: string, contents: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, contents)
}

test.describe('only the files of the site', { tag: ONLY.runtime }, () => {
  test('symlinks and manifest paths out of the site: 404 or the original; a Host with a path: 400', async ({
    serverKind,
  }) => {
    if (!isRuntimeKind(serverKind)) throw new Error(`${serverKind} is not a runtime`)
    const work = await tempDir('e2e-only-site-files')
    try {
      for (const outside of ['outside/secret.txt', 'outside/dir/inner.txt', 'sibling/secret.txt', 'victim/secret.txt'])
        await write(join(work.path, outside), SECRET)
      await write(join(work.path, 'victim/fake.br'), SECRET)
      const site = join(work.path, 'site')
      await write(join(site, 'index.html'), PAGE)
      await write(join(site, 'about/index.html'), ABOUT)
      await write(join(site, 'evil.txt'), EVIL)
      await compress(site, { cache: false, formats: ['gzip', 'brotli'] })
      await symlink(join(work.path, 'outside/secret.txt'), join(site, 'link-file.txt'))
      await symlink(join(work.path, 'outside/dir'), join(site, 'linkdir'))
      await symlink('../sibling', join(site, 'sibl'))
      const manifest = JSON.parse(await readFile(join(site, MANIFEST_FILENAME), 'utf8')) as Manifest
      const evil = manifest.files.find((f) => f.path === 'evil.txt')!
      evil.variants = [
        { format: 'gzip', encoding: 'gzip', path: '../victim/secret.txt', size: 10, sha256: 'a'.repeat(64) },
      ]
      const page = manifest.files.find((f) => f.path === 'index.html')!
      page.variants.unshift({
        format: 'brotli',
        encoding: 'br',
        path: '../victim/fake.br',
        size: 5,
        sha256: 'b'.repeat(64),
      })
      await writeFile(join(site, MANIFEST_FILENAME), JSON.stringify(manifest))

      const port = await freePort()
      const server = await startRuntime(serverKind, site, port)
      try {
        const url = `http://127.0.0.1:${port}`
        for (const path of ['/link-file.txt', '/linkdir/inner.txt', '/sibl/secret.txt', '/linkdir/'])
          for (const accept of ['identity', 'gzip, br']) {
            const res = await get(url + path, { 'accept-encoding': accept })
            expect(res.status, `${path} (${accept})`).toBe(404)
            expect(res.body.toString()).not.toContain('TOP SECRET')
          }
        for (const accept of ['gzip', 'br', 'gzip, deflate, br, zstd']) {
          const evilRes = await get(`${url}/evil.txt`, { 'accept-encoding': accept })
          expect([evilRes.status, evilRes.one('content-encoding'), evilRes.body.toString()]).toEqual([
            200,
            undefined,
            EVIL,
          ])
          const home = await get(`${url}/`, { 'accept-encoding': accept })
          expect([home.status, home.one('content-encoding'), home.body.toString()]).toEqual([200, undefined, PAGE])
        }
        for (const host of ['127.0.0.1/about/#', 'x/evil.txt?'])
          expect((await get(`${url}/index.html`, { host, 'accept-encoding': 'identity' })).status, host).toBe(400)
        const about = await get(`${url}/about/`, { 'accept-encoding': 'identity' })
        expect(about.body.toString()).toBe(ABOUT)
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${server.logs()}`, { cause: error })
      } finally {
        await server.stop()
      }
    } finally {
      await work.remove()
    }
  })
})
