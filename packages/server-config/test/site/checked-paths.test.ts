// A path checked inside the site is remembered with the version of the file it led to, and not
// resolved again while a `stat` shows that version (site/site-root.ts). This guards the memory:
// after a file and a folder were served, a link to outside put in their place — or the very
// file moved out and linked back — is never followed, by the Fetch handler in Node and under
// Bun.serve (where a file is described by its stat and Bun opens it, site/file-access.ts).
// Green on main too (it had no such memory): it covers the mechanism that replaced it.
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createPreencodeHandler } from '@preencode/server-config'
import { freePort, REPO_ROOT, type RunningProcess, runtimeBinary, startProcess, tempDir } from '@preencode/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { compressFixture } from '../fixture.ts'

const SECRET = 'TOP SECRET: a file outside the site\n'
const PATHS = ['/page.txt', '/dir/inner.txt', '/moved.txt']

let work: Awaited<ReturnType<typeof tempDir>> | undefined
let server: RunningProcess | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
  await work?.remove()
})

async function write(path: string, contents: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, contents)
}

/** A site of three files with its manifest (the files are then opened with no other check first), and the secrets beside it. */
async function makeSite(): Promise<{ site: string; outside: string }> {
  work = await tempDir('checked-paths')
  const site = join(work.path, 'site')
  const outside = join(work.path, 'outside')
  for (const path of PATHS) await write(join(site, path), `the site's ${path}\n`)
  await compressFixture(site)
  await write(join(outside, 'secret.txt'), SECRET)
  await write(join(outside, 'dir/inner.txt'), SECRET)
  return { site, outside }
}

/** Links out of the site put in place of what was served: a file, a folder, the file itself moved out. */
async function swapInLinks(site: string, outside: string): Promise<void> {
  await rename(join(site, 'page.txt'), join(outside, 'page-was.txt'))
  await symlink(join(outside, 'secret.txt'), join(site, 'page.txt'))
  await rename(join(site, 'dir'), join(outside, 'dir-was'))
  await symlink(join(outside, 'dir'), join(site, 'dir'))
  // The same inode, unchanged but for the move (which changes its ctime), now outside.
  await rename(join(site, 'moved.txt'), join(outside, 'moved.txt'))
  await symlink(join(outside, 'moved.txt'), join(site, 'moved.txt'))
}

type Get = (path: string) => Promise<{ status: number; body: string }>

async function checkSwap(get: Get, site: string, outside: string): Promise<void> {
  for (const path of PATHS) {
    const first = await get(path)
    expect(first.status, path).toBe(200)
    expect(first.body).toBe(`the site's ${path}\n`)
  }
  await swapInLinks(site, outside)
  for (const path of PATHS) {
    const got = await get(path)
    expect(got.status, path).toBe(404)
    expect(got.body).not.toContain('TOP SECRET')
    expect(got.body).not.toContain("the site's")
  }
}

describe('a path checked inside the site, then a link out put in its place', () => {
  it('the Fetch handler (Node): 404 for the file, the folder and the file moved out', async () => {
    const { site, outside } = await makeSite()
    const handler = createPreencodeHandler(site, { fallthrough: false })
    const get: Get = async (path) => {
      const response = await handler(
        new Request(`http://127.0.0.1${path}`, { headers: { 'accept-encoding': 'identity' } }),
      )
      return { status: response?.status ?? 404, body: response ? await response.text() : '' }
    }
    await checkSwap(get, site, outside)
  })

  it('the Fetch handler under Bun.serve: the same', async (context) => {
    const bun = runtimeBinary('bun', pathToFileURL(join(REPO_ROOT, 'e2e', 'x.js')).href)
    if ('missing' in bun) return context.skip(`missing on this machine: ${bun.missing}`)
    const { site, outside } = await makeSite()
    const port = await freePort()
    const harness = join(REPO_ROOT, 'e2e/harness/runtimes')
    server = await startProcess('bun-serve', bun.path, ['run', join(harness, 'bun-serve.mjs'), site, String(port)], {
      port,
      cwd: harness,
      env: { BUN_DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1', NO_COLOR: '1' },
    })
    const get: Get = async (path) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'accept-encoding': 'identity' } })
      return { status: response.status, body: await response.text() }
    }
    await checkSwap(get, site, outside)
  })
})
