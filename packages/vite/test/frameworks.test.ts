// Real Vite builds with small plugins that write the site when each framework does (DESIGN.md,
// "Where users already are"): pages in a `buildApp` step after the environments, Nitro's own
// public folder filled late, Analog's rewrite of index.html, Qwik City's second build. Whatever
// the timing, the folder that gets deployed ends with every variant and none stale.

import { execFile } from 'node:child_process'
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { readManifest } from '@preencode/core'
import preencode from '@preencode/vite'
import { build, createBuilder, type InlineConfig, type Plugin, type ViteBuilder } from 'vite'
import { describe, expect, it } from 'vitest'
import { captureLogger, expectSiteCompressed, listFiles, page, perTestCleanup, put } from './helpers.js'

const { app } = perTestCleanup()
const run = promisify(execFile)
const THRESHOLD = 200

function options(root: string): Parameters<typeof preencode>[0] {
  return { report: true, threshold: THRESHOLD, levels: { brotli: 5, zstd: 3 }, cache: join(root, '.test-cache') }
}

/** What `vite build` does: a builder (app mode when the config has `builder`), then `buildApp`. */
async function viteBuildApp(root: string, plugins: Plugin[], extra: InlineConfig = {}) {
  const capture = captureLogger()
  const builder = await createBuilder(
    { root, configFile: false, logLevel: 'info', customLogger: capture.logger, plugins, ...extra },
    null,
  )
  await builder.buildApp()
  return capture
}

const environments = (root: string, client: string) => ({
  client: { build: { outDir: client } },
  ssr: { build: { outDir: 'dist/server', rolldownOptions: { input: join(root, 'src/entry-server.js') } } },
})

async function buildAll(builder: ViteBuilder): Promise<void> {
  for (const environment of Object.values(builder.environments)) await builder.build(environment)
}

describe('@preencode/vite in frameworks that write pages after Vite', () => {
  it.each(['tanstack-start-core:build', 'react-router', 'vike:build', 'some-other-ssg'])(
    'compresses pages a %s step writes in buildApp after the environments, once, naming the folder first',
    async (name) => {
      const root = await app()
      const client = join(root, 'dist/client')
      const framework: Plugin = {
        name,
        // React Router builds the app (`buildApp`) with `future.v8_viteEnvironmentApi`, and then shares plugins.
        config: () => ({
          builder: name === 'react-router' ? { sharedPlugins: true } : {},
          environments: environments(root, 'dist/client'),
        }),
        buildApp: async (builder) => {
          await buildAll(builder)
          await put(join(client, 'index.html'), page('home'))
          await put(join(client, 'about/index.html'), page('about'))
        },
      }
      const capture = await viteBuildApp(root, [framework, preencode(options(root))])
      const checked = await expectSiteCompressed(client, THRESHOLD)
      expect(checked).toEqual(expect.arrayContaining(['index.html', 'about/index.html', 'data.json']))
      const tables = capture.lines.filter((line) => /preencode: \d+ of \d+ files/.test(line))
      expect(tables).toHaveLength(1)
      expect(tables[0]).toMatch(/^\npreencode: dist\/client\n/)
      expect(capture.lines.join('\n')).not.toMatch(/\[preencode\]/)
      expect(await listFiles(join(root, 'dist/server'))).not.toContainEqual(expect.stringMatching(/\.(gz|br|zst)$/))
    },
  )

  it("compresses Nitro's public folder after Nitro prerenders and copies public/ late; an extensionless route stays as it is", async () => {
    const root = await app()
    const output = join(root, '.output/public')
    const nitro: Plugin = {
      name: 'nitro:main',
      config: () => ({
        builder: { sharedConfigBuild: true },
        // SolidStart asks for Vite's manifest: Nitro serves .vite/manifest.json with the rest.
        environments: { client: { build: { outDir: '.output/public', copyPublicDir: false, manifest: true } } },
      }),
      buildApp: {
        order: 'post',
        handler: async (builder) => {
          await buildAll(builder)
          await cp(join(root, 'public'), output, { recursive: true })
          await put(join(output, 'about/index.html'), page('about'))
          await put(join(output, 'api/data'), JSON.stringify({ items: Array(60).fill('prerendered json') }))
        },
      },
    }
    const capture = await viteBuildApp(root, [nitro, preencode(options(root))])
    const checked = await expectSiteCompressed(output, THRESHOLD)
    expect(checked).toEqual(
      expect.arrayContaining(['index.html', 'about/index.html', 'data.json', '.vite/manifest.json']),
    )
    // No extension, no known type: listed as application/octet-stream (nginx's default_type too), never compressed.
    expect((await listFiles(output)).filter((path) => path.startsWith('api/data'))).toEqual(['api/data'])
    const entry = (await readManifest(output)).files.find((file) => file.path === 'api/data')
    expect(entry).toMatchObject({ contentType: 'application/octet-stream', variants: [] })
    expect(capture.lines.join('\n')).not.toMatch(/\[preencode\]/)
  })

  it.each([
    ['Nitro 3', { preset: 'static', publicDir: 'public' }, true],
    ['Nitro 2 (Analog 2.7)', { preset: 'nitro-prerender' }, false],
  ] as const)(
    "compresses Analog's Nitro folder (from %s's build info), where index.html was deleted and rewritten: no stale .zst",
    async (_nitro, info, pointer) => {
      const root = await app()
      const client = join(root, 'dist/client')
      const output = join(root, 'dist/analog')
      const analog: Plugin = {
        name: '@analogjs/vite-plugin-nitro',
        config: () => ({
          builder: {
            sharedPlugins: true,
            buildApp: async (builder: ViteBuilder) => {
              await builder.build(builder.environments.client!)
              const publicDir = join(output, 'public')
              await cp(client, publicDir, { recursive: true })
              // Analog removes the SPA shell and its .br and .gz before it prerenders `/`.
              for (const name of ['index.html', 'index.html.br', 'index.html.gz'])
                await rm(join(publicDir, name), { force: true })
              await put(join(publicDir, 'index.html'), page('prerendered home'))
              await put(join(output, 'nitro.json'), JSON.stringify(info))
              // Nitro 3 points at its output folder; Nitro 2 does not.
              if (pointer)
                await put(
                  join(root, 'node_modules/.nitro/last-build.json'),
                  JSON.stringify({ outputDir: '../../../dist/analog' }),
                )
            },
          },
          environments: { client: { build: { outDir: 'dist/client' } } },
        }),
      }
      await viteBuildApp(root, [analog, preencode(options(root))])
      const publicDir = join(output, 'public')
      const checked = await expectSiteCompressed(publicDir, THRESHOLD)
      expect(checked).toEqual(expect.arrayContaining(['index.html', 'data.json']))
      expect((await readFile(join(publicDir, 'index.html'), 'utf8')).includes('prerendered home')).toBe(true)
    },
  )

  it('stands down in Analog when Nitro left no build info, naming the command, and compresses no part of the site', async () => {
    const root = await app()
    const analog: Plugin = {
      name: '@analogjs/vite-plugin-nitro',
      config: () => ({
        builder: { buildApp: (builder: ViteBuilder) => builder.build(builder.environments.client!).then(() => {}) },
        environments: { client: { build: { outDir: 'dist/client' } } },
      }),
    }
    await writeFile(join(root, 'package.json'), JSON.stringify({ scripts: { build: 'ng build' } }))
    const capture = await viteBuildApp(root, [analog, preencode(options(root))])
    const warnings = capture.lines.filter((line) => line.startsWith('[preencode]'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('Analog')
    expect(warnings[0]).toContain('`"build": "ng build && preencode compress dist/analog/public"`')
    expect(await listFiles(join(root, 'dist/client'))).not.toContainEqual(expect.stringMatching(/\.(gz|br|zst)$/))
  })

  // Without the environment API, `react-router build` calls `vite.build()` for the client, then
  // the server, whose writeBundle prerenders into the client folder; its config has `builder`
  // options all the same. Remix 2's `remix vite:build` (Vite 5/6) does the same, without them.
  it.each([
    { framework: 'React Router', name: 'react-router', builder: {} },
    { framework: 'Remix', name: 'remix', builder: undefined },
  ])(
    'compresses the pages $framework prerenders in its server build when it runs vite.build() per environment',
    async ({ name, builder }) => {
      const root = await app()
      const client = join(root, 'build/client')
      const reactRouter = (ssr: boolean): Plugin => ({
        name,
        config: () => ({ ...(builder ? { builder } : {}), build: { outDir: ssr ? 'build/server' : 'build/client' } }),
        writeBundle: {
          sequential: true,
          handler: async () => {
            if (!ssr) return
            await put(join(client, 'index.html'), page('home'))
            await put(join(client, 'about/index.html'), page('about'))
          },
        },
      })
      const capture = captureLogger()
      for (const ssr of [false, true])
        await build({
          root,
          configFile: false,
          logLevel: 'info',
          customLogger: capture.logger,
          plugins: [reactRouter(ssr), preencode(options(root))],
          build: ssr ? { ssr: 'src/entry-server.js' } : {},
        })
      const checked = await expectSiteCompressed(client, THRESHOLD)
      expect(checked).toEqual(expect.arrayContaining(['index.html', 'about/index.html', 'data.json']))
      expect(capture.lines.filter((line) => /preencode: \d+ of \d+ files/.test(line))).toHaveLength(1)
      expect(await listFiles(join(root, 'build/server'))).not.toContainEqual(expect.stringMatching(/\.(gz|br|zst)$/))
    },
  )

  it("compresses the pages Qwik City's static adapter writes in the second (server) build", async () => {
    const root = await app()
    const dist = join(root, 'dist')
    await build({ root, configFile: false, logLevel: 'silent', plugins: [preencode(options(root))] })
    const qwik = { name: 'vite-plugin-qwik', api: { getClientPublicOutDir: () => dist } } as Plugin
    const adapter: Plugin = {
      name: 'vite-plugin-qwik-city-static-generate',
      enforce: 'post',
      closeBundle: {
        sequential: true,
        handler: async () => {
          await put(join(dist, 'index.html'), page('ssg home'))
          await put(join(dist, 'about/index.html'), page('ssg about'))
        },
      },
    }
    await build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [qwik, preencode(options(root)), adapter],
      build: { ssr: 'src/entry-server.js', outDir: 'server' },
    })
    const checked = await expectSiteCompressed(dist, THRESHOLD)
    expect(checked).toEqual(expect.arrayContaining(['index.html', 'about/index.html', 'data.json']))
    expect(await listFiles(join(root, 'server'))).not.toContainEqual(expect.stringMatching(/\.(gz|br|zst)$/))
  })
})

describe('@preencode/vite: the look at the deployed folder after it ran', () => {
  /** A plain `vite build` (no `builder`): a plugin's buildApp builds, then writes in dist. */
  function lateWriter(write: (dist: string) => Promise<void>, root: string): Plugin {
    return {
      name: 'late-writer',
      buildApp: async (builder) => {
        await buildAll(builder)
        await write(join(root, 'dist'))
      },
    }
  }

  // The one line naming these files comes as the process exits (exit-invariant.test.ts).
  it('compresses a compressible file written after preencode ran, before the build returns', async () => {
    const root = await app()
    const late = lateWriter((dist) => put(join(dist, 'late/index.html'), page('late')), root)
    const capture = await viteBuildApp(root, [late, preencode(options(root))])
    const checked = await expectSiteCompressed(join(root, 'dist'), THRESHOLD)
    expect(checked).toContain('late/index.html')
    expect(capture.lines.filter((line) => line.startsWith('[preencode]'))).toEqual([])
  })

  it('says so when an app build never reaches buildApp (vite.build() with `builder` options), naming the command', async () => {
    const root = await app()
    const script = join(root, 'build.mjs')
    const vite = import.meta.resolve('vite')
    const plugin = import.meta.resolve('@preencode/vite')
    await writeFile(
      script,
      `import { build } from ${JSON.stringify(vite)}\nimport preencode from ${JSON.stringify(plugin)}\n` +
        `await build({ root: ${JSON.stringify(root)}, configFile: false, logLevel: 'warn', builder: {}, plugins: [preencode({ threshold: ${THRESHOLD} })] })\n`,
    )
    const { stdout, stderr } = await run(process.execPath, [script])
    const warnings = `${stdout}${stderr}`.split('\n').filter((line) => line.includes('[preencode]'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain("left to Vite's buildApp step, which never ran")
    expect(warnings[0]).toContain('`preencode compress dist`')
  })

  it('never leaves a variant of a file changed after preencode ran: compresses it again before the build returns', async () => {
    const root = await app()
    const late = lateWriter((dist) => writeFile(join(dist, 'index.html'), page('rewritten')), root)
    const capture = await viteBuildApp(root, [late, preencode(options(root))])
    await expectSiteCompressed(join(root, 'dist'), THRESHOLD)
    expect(capture.lines.filter((line) => line.startsWith('[preencode]'))).toEqual([])
  })
})
