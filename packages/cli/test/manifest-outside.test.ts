// A manifest that names a path out of the site (issue 35): hand-edited, or another folder's
// linked in, it gives a variant at `../outside/secret.txt.gz`. Every command that reads a
// manifest refuses it in one line naming the manifest and the path, before it stats, hashes,
// uploads or requests that path: `verify` (which asked the server for it), `deploy` (which
// uploaded the outside file as the variant) and `config`.
import { spawn } from 'node:child_process'
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { join, resolve } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, expect, it } from 'vitest'

const BIN = resolve(import.meta.dirname, '../dist/bin.js')

function cli(args: string[], cwd: string): Promise<{ status: number | null; stderr: string }> {
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
    child.on('error', reject)
    child.on('close', (status) => done({ status, stderr }))
  })
}

const asked: string[] = []
const server = createServer((req, res) => {
  asked.push(req.url ?? '')
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
})
let work: Awaited<ReturnType<typeof tempDir>>
let site = ''
let url = ''

beforeAll(async () => {
  work = await tempDir('cli-manifest-outside')
  site = join(work.path, 'site')
  await mkdir(site)
  await writeFile(join(site, 'a.txt'), 'some text that compresses well\n'.repeat(400))
  expect((await cli(['compress', site, '--quiet'], work.path)).status).toBe(0)
  // The gzip variant moved out of the site, the same bytes: the disk still matches the manifest.
  await mkdir(join(work.path, 'outside'))
  await copyFile(join(site, 'a.txt.gz'), join(work.path, 'outside', 'secret.txt.gz'))
  await rm(join(site, 'a.txt.gz'))
  const path = join(site, '.preencode-manifest.json')
  const manifest = JSON.parse(await readFile(path, 'utf8'))
  for (const variant of manifest.files[0].variants)
    if (variant.path === 'a.txt.gz') variant.path = '../outside/secret.txt.gz'
  await writeFile(path, JSON.stringify(manifest))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`
})
afterAll(async () => {
  server.close()
  await work.remove()
})

const refusal = (): RegExp =>
  new RegExp(
    `${join(site, '.preencode-manifest.json')} names "\\.\\./outside/secret\\.txt\\.gz", a path out of the site`,
  )

it('verify refuses it, and asks the server for no file of the site', async () => {
  const run = await cli(['verify', url, site], work.path)
  expect(run.status).toBe(1)
  expect(run.stderr).toMatch(refusal())
  expect(asked.filter((u) => u !== '/')).toEqual([])
})

it('deploy and config refuse it too; nothing is uploaded', async () => {
  const out = join(work.path, 'deployed')
  const deploy = await cli(['deploy', site, '--to', out], work.path)
  expect(deploy.status).toBe(1)
  expect(deploy.stderr).toMatch(refusal())
  expect(await readdir(out).catch(() => [])).toEqual([])
  const config = await cli(['config', 'nginx', site], work.path)
  expect(config.status).toBe(1)
  expect(config.stderr).toMatch(refusal())
})
