// Each framework fixture of playground/frameworks/ built by its own build command (once per run,
// by the `frameworks-build` project: build.setup.ts), with preencode added the way its guide
// says: every compressible file of the deployed folder has variants whose decoded bytes are the
// file on disk (or the build printed the one line that completes the folder, and running it
// does), no variant is stale, the build printed no preencode warning but the intended ones, the manifest lists the pages, the pages load in Chromium from nginx with br/zstd, and
// `pnpm run deploy` ships them.
import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { serverConfig } from '@preencode/server-config'
import { type RunningServer, startServer } from '../harness/servers.ts'
import { FIXTURES_DIR, HTACCESS, readOutput, readPageAssets, run, sha256 } from './build.ts'
import { buildResult } from './builds.ts'
import { inspectDeployed, literal, THRESHOLD, unintendedWarnings } from './deployed.ts'
import { FRAMEWORKS } from './list.ts'
import { completeAsPrinted } from './printed-command.ts'
import { attachSummary } from './summary.ts'

for (const framework of FRAMEWORKS) {
  test.describe(framework.name, () => {
    test.describe.configure({ mode: 'serial' })
    const fixture = join(FIXTURES_DIR, framework.dir)
    const root = join(fixture, framework.out)

    test('its own build command leaves variants of the final bytes of every compressible file', async ({}, testInfo) => {
      const build = await buildResult(framework)
      await testInfo.attach('build output', { body: build.output, contentType: 'text/plain' })
      let deployed = await inspectDeployed(root).catch(() => undefined)
      await attachSummary(testInfo, framework, build, deployed)
      expect(build.status, build.output.slice(-3000)).toBe(0)
      if (framework.report !== false)
        expect(build.output, 'the report is printed').toMatch(/preencode: \d+ of \d+ files -> \d+ variants/)
      const completing = framework.completedBy ? [new RegExp(literal(framework.completedBy))] : []
      expect(
        unintendedWarnings(build.output, [...(framework.warnings ?? []), ...completing]),
        'preencode warnings',
      ).toEqual([])
      if (framework.completedBy) deployed = await completeAsPrinted(fixture, framework.completedBy, build.output)

      deployed ??= await inspectDeployed(root)
      expect(
        deployed.eligible.length,
        `compressible files of ${THRESHOLD} B or more in ${framework.out}`,
      ).toBeGreaterThan(0)
      expect(deployed.missing, `of ${deployed.eligible.length} eligible files, these lack variants`).toEqual([])
      expect(deployed.stale, 'variants whose original is gone or differs').toEqual([])

      const { manifest, files } = await readOutput(root)
      const pages = files.filter((file) => file.path.endsWith('.html'))
      expect(pages.length, 'HTML pages in the output').toBeGreaterThanOrEqual(framework.minPages)
      for (const kind of ['.html', '.js', '.css']) {
        expect(
          files.filter((file) => file.path.endsWith(kind) && file.decoded.size > 0).length,
          `${kind} files with variants`,
        ).toBeGreaterThan(0)
      }
      for (const file of files) {
        expect(file.entry, `${file.path} is in the manifest`).toBeDefined()
        expect(file.entry!.sha256, `the manifest's hash of ${file.path} is the file on disk`).toBe(sha256(file.bytes))
        if (file.bytes.length < THRESHOLD) {
          expect(file.entry!.variants, `${file.path} (${file.bytes.length} B) is below the threshold`).toEqual([])
          continue
        }
        expect([...file.decoded.keys()].sort(), `variants of ${file.path}`).toEqual(['br', 'gzip', 'zstd'])
        for (const [encoding, decoded] of file.decoded) {
          expect(decoded.equals(file.bytes), `${file.path} decoded from ${encoding} equals the file on disk`).toBe(true)
        }
        expect(
          file.entry!.variants.map((variant) => variant.encoding).sort(),
          `manifest variants of ${file.path}`,
        ).toEqual(['br', 'gzip', 'zstd'])
      }
      expect(manifest.files.length).toBeGreaterThanOrEqual(files.length)

      // serverConfigs through the integration: the config is written into the output, describes
      // the final manifest, and is itself listed (deploy ships it).
      for (const late of framework.lateFiles ?? []) {
        const entry = manifest.files.find((file) => file.path === late)
        expect(
          entry?.variants.map((variant) => variant.encoding).sort(),
          `variants of ${late}, written by an earlier integration`,
        ).toEqual(['br', 'gzip', 'zstd'])
      }
      if (framework.htaccess) {
        const htaccess = await readFile(join(root, HTACCESS), 'utf8')
        expect(htaccess).toBe(serverConfig(manifest, { server: 'apache' }))
        expect(manifest.files.map((file) => file.path)).toContain(HTACCESS)
      }
    })

    test('Chromium loads the prerendered pages from nginx as br or zstd and runs their scripts', async ({ page }) => {
      const { manifest } = await readOutput(root)
      let server: RunningServer | undefined
      try {
        server = await startServer('nginx-stock', manifest, root)
        const origin = server.url
        const seen: { url: string; type: string; encoding: string | undefined }[] = []
        const fetched = framework.fetched ?? ['document', 'script', 'stylesheet']
        page.on('response', (response) => {
          const type = response.request().resourceType()
          // nginx answers `/about` with a redirect to `/about/`: the page is the answer after it.
          const redirect = response.status() >= 300 && response.status() < 400
          if (response.url().startsWith(origin) && fetched.includes(type) && !redirect) {
            seen.push({ url: response.url(), type, encoding: response.headers()['content-encoding'] })
          }
        })
        for (const path of framework.pages) {
          await page.goto(origin + path)
          await expect(page.locator('#script-status'), `the page's script ran on ${path}`).toHaveText(/^script ran/)
        }
        const withVariants = (url: string): boolean => {
          let path = decodeURIComponent(new URL(url).pathname.slice(1))
          if (path === '' || path.endsWith('/')) path += 'index.html'
          return (manifest.files.find((file) => file.path === path)?.variants.length ?? 0) > 0
        }
        for (const type of fetched) {
          const ofType = seen.filter((response) => response.type === type && withVariants(response.url))
          expect(ofType.length, `${type} responses with variants`).toBeGreaterThan(0)
          for (const response of ofType) expect(['br', 'zstd'], response.url).toContain(response.encoding)
        }
      } finally {
        if (server) {
          if (test.info().status !== test.info().expectedStatus)
            await test.info().attach('nginx.log', { body: server.logs(), contentType: 'text/plain' })
          await server.stop()
        }
      }
    })

    test('`pnpm run deploy` ships the variants beside the pages', async () => {
      const deployed = join(fixture, 'deployed')
      await rm(deployed, { recursive: true, force: true })
      try {
        const deploy = await run(fixture, 'pnpm', ['run', 'deploy'])
        expect(deploy.status, deploy.output.slice(-3000)).toBe(0)
        const source = await readOutput(root)
        const shipped = new Map((await readPageAssets(deployed)).map((file) => [file.path, file]))
        expect(source.files.length).toBeGreaterThan(0)
        for (const file of source.files) {
          const copy = shipped.get(file.path)
          expect(copy?.bytes.equals(file.bytes), `${file.path} deployed`).toBe(true)
          expect([...copy!.decoded.keys()].sort(), `variants of ${file.path} deployed`).toEqual(
            [...file.decoded.keys()].sort(),
          )
        }
      } finally {
        await rm(deployed, { recursive: true, force: true })
      }
    })
  })
}

test('Astro with server output: the client folder is compressed, the server bundle is not', async () => {
  const fixture = join(FIXTURES_DIR, 'astro')
  const out = join(fixture, 'dist-server')
  try {
    const build = await run(fixture, 'pnpm', ['exec', 'astro', 'build', '--config', 'astro.server.config.mjs'])
    expect(build.status, build.output.slice(-3000)).toBe(0)
    expect(build.output).toContain('server output: compressing the client folder')
    const { files } = await readOutput(join(out, 'client'))
    const assets = files.filter((file) => file.bytes.length >= THRESHOLD)
    expect(assets.map((file) => file.path.split('.').pop()).sort()).toEqual(['css', 'js'])
    for (const file of assets) {
      expect([...file.decoded.keys()].sort(), `variants of ${file.path}`).toEqual(['br', 'gzip', 'zstd'])
      for (const decoded of file.decoded.values()) expect(decoded.equals(file.bytes), file.path).toBe(true)
    }
    expect(await preencodeFiles(join(out, 'server')), 'variants in the server bundle').toEqual([])
  } finally {
    await rm(out, { recursive: true, force: true })
  }
})

test.describe('the plain Vite plugin inside a framework', () => {
  // Each fixture puts `preencode()` from @preencode/vite into the framework's Vite plugins.
  for (const { name, integration, dir, command, outputs } of [
    {
      name: 'Astro',
      integration: 'astro',
      dir: 'astro',
      command: ['exec', 'astro', 'build', '--config', 'astro.plain-vite.config.mjs'],
      outputs: ['dist-plain-vite'],
    },
    {
      name: 'SvelteKit',
      integration: 'sveltekit',
      dir: 'sveltekit',
      command: ['exec', 'vite', 'build', '--config', 'vite.plain-vite.config.js'],
      outputs: ['build-plain-vite', '.svelte-kit/output'],
    },
    {
      name: 'VitePress',
      integration: 'vitepress',
      dir: 'vitepress',
      command: ['exec', 'vitepress', 'build', 'plain-vite'],
      outputs: ['dist-plain-vite'],
    },
    {
      name: 'Nuxt',
      integration: 'nuxt',
      dir: 'nuxt-plain-vite',
      command: ['run', 'build'],
      outputs: ['.output', '.nuxt/dist'],
    },
  ]) {
    test(`${name}: warns at build time, names @preencode/${integration}, and writes no partial variants`, async () => {
      const fixture = join(FIXTURES_DIR, dir)
      try {
        const build = await run(fixture, 'pnpm', command)
        expect(build.status, build.output.slice(-3000)).toBe(0)
        expect(build.output).toContain(`[preencode] ${name} writes its final pages after Vite's build`)
        expect(build.output).toContain(`Use @preencode/${integration}`)
        for (const folder of outputs) {
          expect(await preencodeFiles(join(fixture, folder)), `variants or manifest written into ${folder}`).toEqual([])
        }
      } finally {
        await rm(join(fixture, outputs[0]!), { recursive: true, force: true })
      }
    })
  }
})

/** Variants and manifests under `dir` (none if it does not exist). */
async function preencodeFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile() && /\.(br|gz|zst)$|^\.preencode-manifest\.json$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
}
