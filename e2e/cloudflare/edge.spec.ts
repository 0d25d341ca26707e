// The Cloudflare Worker in workerd, past what the shared serving suite asks of every server:
// - the bytes on the wire are the stored variant's, and a Worker that leaves out
//   `encodeBody: 'manual'` gets them re-encoded by the runtime (the control that shows the check bites);
// - the user's path: `preencode compress`, `preencode config cloudflare`, then `wrangler dev`
//   serving the folder offline and `wrangler deploy --dry-run` bundling the Worker and reading
//   the assets without the manifest: everything up to the upload, which needs an account.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type ManifestFile, readManifest } from '@preencode/core'
import { verifySite } from '@preencode/server-config'
import { freePort, REPO_ROOT, tempDir } from '@preencode/test-utils'
import { startMiniflare, startWranglerDev, WRANGLER_BIN, writeWorkerFolder } from '../harness/cloudflare.ts'
import { expect, test } from '../harness/fixtures.ts'
import { decode, get } from '../harness/http.ts'
import { DOTFILES } from '../harness/site.ts'

const CLI = join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js')
const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex')
const urlOf = (file: ManifestFile): string =>
  `/${file.path
    .replace(/(^|\/)index\.html$/, '$1')
    .split('/')
    .map(encodeURIComponent)
    .join('/')}`

/** The same Worker without `encodeBody: 'manual'`: what a naive Worker returns. */
const NAIVE_WORKER = `import site from './preencode-site.js'
import { createWorker } from './preencode-runtime.js'
const worker = createWorker(site)
export default {
  async fetch(request, env) {
    const res = await worker.fetch(request, env)
    return new Response(res.body, { status: res.status, headers: res.headers })
  },
}
`

test('the edge does not recompress: the bytes on the wire are the stored variant', async ({ site }) => {
  const work = await tempDir('cf-bytes')
  // Dotfiles answer 404 (the serving suite checks it): only files a visitor can get.
  const files = site.manifest.files
    .filter((f) => f.variants.length === 3 && !Object.hasOwn(DOTFILES, f.path))
    .slice(0, 6)
  expect(files.length).toBeGreaterThan(2)
  const cases = [
    { header: 'br', coding: 'br' },
    { header: 'zstd', coding: 'zstd' },
    { header: 'gzip', coding: 'gzip' },
    { header: 'br, gzip', coding: 'br' },
  ]
  const port = await freePort()
  const dir = join(work.path, 'worker')
  await writeWorkerFolder(site.manifest, site.root, dir)
  const server = await startMiniflare(dir, port)
  try {
    for (const file of files) {
      for (const { header, coding } of cases) {
        const variant = file.variants.find((v) => v.encoding === coding)!
        const res = await get(`http://127.0.0.1:${port}${urlOf(file)}`, { 'accept-encoding': header })
        expect(res.one('content-encoding'), `${file.path} ${header}`).toBe(coding)
        expect(sha256(res.body), `${file.path} ${header}: the stored ${variant.path}`).toBe(variant.sha256)
        expect(res.one('content-length')).toBe(String(variant.size))
      }
    }
    // `preencode verify` against the Worker, its default probes, over the files stored in every
    // coding. The others (too small, or a coding that saved too little) the front line compresses
    // itself for a visitor that accepts gzip or br, as it does any Worker response of a
    // compressible type: verify reports those as compressed on the fly (docs/deploy/cloudflare.md).
    const complete = { ...site.manifest, files: site.manifest.files.filter((f) => f.variants.length === 3) }
    const verified = await verifySite(`http://127.0.0.1:${port}/`, complete, site.root)
    expect(verified.failures, JSON.stringify(verified.failures.slice(0, 3))).toEqual([])
    expect(verified.files).toBe(complete.files.length)
    const partial = site.manifest.files.find((f) => f.variants.length === 0 && /\.(js|css|html)$/.test(f.path))
    if (partial) {
      const res = await get(`http://127.0.0.1:${port}${urlOf(partial)}`, { 'accept-encoding': 'gzip' })
      expect(res.one('content-encoding'), `${partial.path}: no variant, compressed by the edge`).toBe('gzip')
    }
  } finally {
    await server.stop()
  }

  // The control: without encodeBody: 'manual' the runtime encodes the stored bytes again.
  const naive = join(work.path, 'naive')
  await writeWorkerFolder(site.manifest, site.root, naive)
  await writeFile(join(naive, 'worker.js'), NAIVE_WORKER)
  const naivePort = await freePort()
  const control = await startMiniflare(naive, naivePort)
  try {
    const file = files[0]!
    const gzip = file.variants.find((v) => v.encoding === 'gzip')!
    const res = await get(`http://127.0.0.1:${naivePort}${urlOf(file)}`, { 'accept-encoding': 'gzip' })
    expect(res.one('content-encoding')).toBe('gzip')
    expect(sha256(res.body), 'a Worker without encodeBody: manual sends other bytes').not.toBe(gzip.sha256)
  } finally {
    await control.stop()
    await work.remove()
  }
})

test.describe('the user path: preencode config cloudflare, then wrangler', () => {
  let work: Awaited<ReturnType<typeof tempDir>>
  let root: string
  let out: string

  test.beforeAll(async () => {
    work = await tempDir('cf-wrangler')
    root = join(work.path, 'dist')
    out = join(work.path, 'cloudflare')
    await mkdir(join(root, 'assets'), { recursive: true })
    const lines = (label: string, n: number): string =>
      Array.from({ length: n }, (_, i) => `${label} line ${i}: the quick brown fox ${i % 13}`).join('\n')
    await writeFile(join(root, 'index.html'), `<!doctype html><title>t</title><p>${lines('page', 200)}</p>\n`)
    await writeFile(join(root, 'assets', 'app-Ab3dEf9h.js'), `console.log(${JSON.stringify(lines('app', 400))})\n`)
    for (const args of [
      ['compress', root, '--quiet'],
      ['config', 'cloudflare', root, '--out', out],
    ]) {
      const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' })
      expect(result.status, `${args.join(' ')}\n${result.stderr}`).toBe(0)
    }
  })
  test.afterAll(() => work.remove())

  test('wrangler dev serves the generated folder offline, byte for byte', async () => {
    const manifest = await readManifest(root)
    const app = manifest.files.find((f) => f.path.endsWith('.js'))!
    const port = await freePort()
    const server = await startWranglerDev(out, port)
    try {
      for (const coding of ['zstd', 'br', 'gzip'] as const) {
        const variant = app.variants.find((v) => v.encoding === coding)!
        const res = await get(`http://127.0.0.1:${port}/${app.path}`, { 'accept-encoding': coding })
        expect(res.status, server.logs()).toBe(200)
        expect(res.one('content-encoding')).toBe(coding)
        expect(sha256(res.body)).toBe(variant.sha256)
        expect(res.one('content-length')).toBe(String(variant.size))
      }
      // wrangler's dev proxy runs HTML through HTMLRewriter (live reload), the cases the serving
      // suite names in devProxyRewrites: no Content-Length; br and zstd keep their bytes, gzip is
      // decoded and gzipped again (the same page); a range of a page is not served.
      const page = manifest.files.find((f) => f.path === 'index.html')!
      for (const coding of ['br', 'zstd', 'gzip'] as const) {
        const stored = page.variants.find((v) => v.encoding === coding)!
        const res = await get(`http://127.0.0.1:${port}/`, { 'accept-encoding': coding })
        expect(res.one('content-encoding')).toBe(coding)
        expect(res.one('content-length'), `${coding} page`).toBeUndefined()
        expect(sha256(decode(res.body, coding))).toBe(page.sha256)
        expect(sha256(res.body) === stored.sha256, `${coding} page: the stored bytes`).toBe(coding !== 'gzip')
        const head = await get(`http://127.0.0.1:${port}/`, { 'accept-encoding': coding }, 'HEAD')
        expect(head.one('content-length'), `HEAD of the ${coding} page`).toBe(String(stored.size))
      }
      for (const coding of ['br', 'zstd'] as const) {
        const res = await get(`http://127.0.0.1:${port}/`, { 'accept-encoding': coding, range: 'bytes=0-9' })
        expect(res.status).toBe(206)
        const stored = await readFile(join(root, page.variants.find((v) => v.encoding === coding)!.path))
        expect(res.body.equals(stored.subarray(0, 10)), `${coding} range of the page`).toBe(true)
      }
      // The cut gzip stream does not decode in the dev proxy: the connection is dropped.
      await expect(
        get(`http://127.0.0.1:${port}/`, { 'accept-encoding': 'gzip', range: 'bytes=0-9' }),
      ).rejects.toThrow()
      expect((await get(`http://127.0.0.1:${port}/.preencode-manifest.json`)).status).toBe(404)
    } finally {
      await server.stop()
    }
  })

  test('wrangler deploy --dry-run bundles the Worker and leaves the manifest out of the assets', async () => {
    const bundle = join(work.path, 'bundle')
    const home = join(work.path, 'home')
    const result = spawnSync(process.execPath, [WRANGLER_BIN, 'deploy', '--dry-run', '--outdir', bundle], {
      cwd: out,
      encoding: 'utf8',
      env: { ...process.env, HOME: home, WRANGLER_LOG: 'debug', WRANGLER_SEND_METRICS: 'false', CI: 'true' },
    })
    const output = `${result.stdout}${result.stderr}`
    expect(result.status, output).toBe(0)
    expect(output).toContain('env.ASSETS')
    expect(output).toContain('Ignoring asset: .preencode-manifest.json')
    expect(output).not.toMatch(/Ignoring asset: (index\.html|assets\/)/)
    expect(await readFile(join(bundle, 'worker.js'), 'utf8')).toContain('createWorker')
  })
})
