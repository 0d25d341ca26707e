// Real Vite builds (vite.build / createBuilder, Rolldown underneath) of small fixtures: what the
// plugin compresses, what it leaves alone, and that it runs after everything else has written.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { MANIFEST_FILENAME, readManifest } from '@preencode/core'
import preencode, { preencode as namedPreencode, type PreencodeViteOptions } from '@preencode/vite'
import { build, createBuilder, type InlineConfig, type Plugin } from 'vite'
import { describe, expect, it } from 'vitest'
import {
  captureLogger,
  expectVariantsDecode,
  listFiles,
  perTestCleanup,
  VARIANT_EXTENSIONS,
  variantsOf,
} from './helpers.js'

const { app } = perTestCleanup()

/** Fast levels: these tests are about which files get variants, not about ratios. */
function options(root: string, extra: PreencodeViteOptions = {}): PreencodeViteOptions {
  return { report: 'json', threshold: 200, levels: { brotli: 5, zstd: 3 }, cache: join(root, '.test-cache'), ...extra }
}

function config(
  root: string,
  plugins: Plugin[],
  extra: InlineConfig = {},
): InlineConfig & { capture: ReturnType<typeof captureLogger> } {
  const capture = captureLogger()
  return { root, configFile: false, logLevel: 'info', customLogger: capture.logger, plugins, ...extra, capture }
}

async function viteBuild(
  root: string,
  plugins: Plugin[],
  extra: InlineConfig = {},
): Promise<ReturnType<typeof captureLogger>> {
  const { capture, ...inline } = config(root, plugins, extra)
  await build(inline)
  return capture
}

describe('@preencode/vite', () => {
  it('exports the plugin as default and named, with the expected shape', () => {
    expect(preencode).toBe(namedPreencode)
    const plugin = preencode()
    expect(plugin.name).toBe('preencode:vite')
    // Builds compress, `vite preview` serves the variants, the dev server is left alone.
    const apply = plugin.apply as (
      config: object,
      env: { command: 'build' | 'serve'; mode: string; isPreview?: boolean },
    ) => boolean
    expect(apply({}, { command: 'build', mode: 'production' })).toBe(true)
    expect(apply({}, { command: 'serve', mode: 'production', isPreview: true })).toBe(true)
    expect(apply({}, { command: 'serve', mode: 'development' })).toBe(false)
    expect(plugin.enforce).toBe('post')
    expect(plugin.closeBundle).toMatchObject({ order: 'post', sequential: true })
  })

  it('compresses HTML, JS chunks, CSS and public/ files; every variant decodes to the original', async () => {
    const root = await app()
    const capture = await viteBuild(root, [preencode(options(root))])
    const dist = join(root, 'dist')
    const files = await listFiles(dist)
    const js = files.filter((f) => /^assets\/.*\.js$/.test(f))
    const css = files.filter((f) => /^assets\/.*\.css$/.test(f))
    expect(js.length).toBeGreaterThanOrEqual(2) // entry + lazy chunk
    expect(css).toHaveLength(1)
    for (const path of ['index.html', 'data.json', ...js, ...css]) {
      expect(variantsOf(files, path), path).toEqual([...VARIANT_EXTENSIONS])
      await expectVariantsDecode(dist, path, VARIANT_EXTENSIONS)
    }
    const manifest = await readManifest(dist)
    expect(manifest.files.map((f) => f.path)).toContain('index.html')
    const [report] = capture.reports()
    expect(report?.dir).toBe(dist)
    expect(report?.cache.misses).toBeGreaterThan(0)
  })

  it('compresses files another plugin writes in its own closeBundle, with their final bytes', async () => {
    const root = await app()
    // Listed after preencode and enforced 'post' like it: only closeBundle's order can save us.
    const late: Plugin = {
      name: 'test:late',
      apply: 'build',
      enforce: 'post',
      async writeBundle() {
        await writeFile(join(root, 'dist', 'late.txt'), 'placeholder '.repeat(200))
      },
      async closeBundle() {
        await new Promise((done) => setTimeout(done, 150))
        await writeFile(join(root, 'dist', 'late.txt'), `final ${'content written in closeBundle, '.repeat(60)}`)
      },
    }
    await viteBuild(root, [preencode(options(root)), late])
    const files = await listFiles(join(root, 'dist'))
    expect(variantsOf(files, 'late.txt')).toEqual([...VARIANT_EXTENSIONS])
    const original = await expectVariantsDecode(join(root, 'dist'), 'late.txt', VARIANT_EXTENSIONS)
    expect(original.toString()).toMatch(/^final /)
  })

  it('writes build.manifest as is and leaves .vite/ uncompressed; the files it names get variants', async () => {
    const root = await app()
    await viteBuild(root, [preencode(options(root))], { build: { manifest: true } })
    const dist = join(root, 'dist')
    const files = await listFiles(dist)
    expect(files).toContain('.vite/manifest.json')
    expect(variantsOf(files, '.vite/manifest.json')).toEqual([])
    const viteManifest = JSON.parse(await readFile(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >
    const entry = viteManifest['index.html']
    expect(entry).toBeDefined()
    expect(variantsOf(files, entry!.file)).toEqual([...VARIANT_EXTENSIONS])

    // A custom manifest name is a backend file too.
    await viteBuild(root, [preencode(options(root))], { build: { manifest: 'backend/assets.json' } })
    const custom = await listFiles(dist)
    expect(custom).toContain('backend/assets.json')
    expect(variantsOf(custom, 'backend/assets.json')).toEqual([])
  })

  it('compresses a custom outDir', async () => {
    const root = await app()
    await viteBuild(root, [preencode(options(root))], { build: { outDir: 'build/www' } })
    const files = await listFiles(join(root, 'build/www'))
    expect(variantsOf(files, 'index.html')).toEqual([...VARIANT_EXTENSIONS])
    expect(files).toContain(MANIFEST_FILENAME)
  })

  it('compresses each of several outputs, each with its own manifest', async () => {
    const root = await app()
    const capture = await viteBuild(root, [preencode(options(root))], {
      build: {
        rolldownOptions: {
          input: join(root, 'src/main.js'),
          output: [
            { dir: join(root, 'out/es'), format: 'es', entryFileNames: 'main.js' },
            { dir: join(root, 'out/legacy'), format: 'es', entryFileNames: 'main.legacy.js' },
          ],
        },
      },
    })
    for (const [dir, entry] of [
      ['out/es', 'main.js'],
      ['out/legacy', 'main.legacy.js'],
    ] as const) {
      const files = await listFiles(join(root, dir))
      expect(variantsOf(files, entry), `${dir}/${entry}`).toEqual([...VARIANT_EXTENSIONS])
      expect(variantsOf(files, 'data.json'), `${dir}/data.json`).toEqual([...VARIANT_EXTENSIONS])
      expect(files).toContain(MANIFEST_FILENAME)
      await expectVariantsDecode(join(root, dir), entry, VARIANT_EXTENSIONS)
    }
    expect(
      capture
        .reports()
        .map((r) => r.dir)
        .sort(),
    ).toEqual([join(root, 'out/es'), join(root, 'out/legacy')])
  })

  it('skips an SSR build by default, and compresses it when `environments` names it', async () => {
    const root = await app()
    const ssrBuild: InlineConfig = { build: { ssr: 'src/entry-server.js', outDir: 'dist-ssr' } }
    const skipped = await viteBuild(root, [preencode(options(root))], ssrBuild)
    let files = await listFiles(join(root, 'dist-ssr'))
    expect(files.some((f) => /\.(gz|br|zst)$/.test(f))).toBe(false)
    expect(files).not.toContain(MANIFEST_FILENAME)
    expect(skipped.reports()).toEqual([])

    await viteBuild(root, [preencode(options(root, { environments: ['ssr'] }))], ssrBuild)
    files = await listFiles(join(root, 'dist-ssr'))
    const entry = files.find((f) => /^entry-server\.m?js$/.test(f))
    expect(entry).toBeDefined()
    expect(variantsOf(files, entry!)).toEqual([...VARIANT_EXTENSIONS])
  })

  it.each([false, true])(
    'with the environment API (sharedPlugins: %s), compresses the client environment only',
    async (sharedPlugins) => {
      const root = await app()
      const { capture, ...inline } = config(root, [preencode(options(root))], {
        builder: { sharedPlugins },
        environments: {
          client: { build: { outDir: 'dist/client' } },
          ssr: { build: { outDir: 'dist/server', rolldownOptions: { input: join(root, 'src/entry-server.js') } } },
        },
      })
      const builder = await createBuilder(inline)
      await builder.buildApp()
      const client = await listFiles(join(root, 'dist/client'))
      const server = await listFiles(join(root, 'dist/server'))
      expect(variantsOf(client, 'index.html')).toEqual([...VARIANT_EXTENSIONS])
      expect(server.length).toBeGreaterThan(0)
      expect(server.some((f) => /\.(gz|br|zst)$/.test(f))).toBe(false)
      expect(capture.reports().map((r) => r.dir)).toEqual([join(root, 'dist/client')])
    },
  )

  it('a second build with unchanged content compresses nothing: all cache hits', async () => {
    const root = await app()
    const first = await viteBuild(root, [preencode(options(root))])
    const second = await viteBuild(root, [preencode(options(root))])
    const [cold] = first.reports()
    const [warm] = second.reports()
    expect(cold?.cache.misses).toBeGreaterThan(0)
    expect(warm?.cache.misses).toBe(0)
    expect(warm?.cache.hits).toBe(cold?.cache.misses)
  })

  it('prints the table through the Vite logger by default, and nothing with report: false', async () => {
    const root = await app()
    const table = await viteBuild(root, [preencode({ ...options(root), report: true })])
    expect(table.lines.join('\n')).toMatch(/preencode: \d+ of \d+ files -> \d+ variants/)
    const silent = await viteBuild(root, [preencode({ ...options(root), report: false })])
    expect(silent.lines.join('\n')).not.toMatch(/preencode: /)
  })

  it('in watch mode, recompresses after each rebuild and only what changed', async () => {
    const root = await app()
    const { capture, ...inline } = config(root, [preencode(options(root))], { build: { watch: {} } })
    const watcher = (await build(inline)) as { close(): Promise<void> }
    try {
      await waitFor(() => capture.reports().length >= 1)
      const lazySource = join(root, 'src/lazy.js')
      await writeFile(
        lazySource,
        (await readFile(lazySource, 'utf8')).replace('The lazy chunk ran', 'The edited lazy chunk ran'),
      )
      // The watcher may also rebuild with nothing changed (all hits, nothing compressed): wait
      // for the rebuild that carries the edit.
      await waitFor(() =>
        capture
          .reports()
          .slice(1)
          .some((report) => report.cache.misses > 0),
      )
    } finally {
      await watcher.close()
    }
    const cold = capture.reports()[0]
    const rebuilt = capture
      .reports()
      .slice(1)
      .find((report) => report.cache.misses > 0)
    expect(cold!.cache.misses).toBeGreaterThan(0)
    // The lazy chunk changed (and the entry, which names its hashed file); the rest is cached.
    expect(rebuilt!.cache.misses).toBeGreaterThan(0)
    expect(rebuilt!.cache.misses).toBeLessThan(cold!.cache.misses)
    expect(rebuilt!.cache.hits).toBeGreaterThan(0)
    const files = await listFiles(join(root, 'dist'))
    const lazy = files.find((f) => /^assets\/lazy-.*\.js$/.test(f))
    expect(lazy).toBeDefined()
    const text = await expectVariantsDecode(join(root, 'dist'), lazy!, VARIANT_EXTENSIONS)
    expect(text.toString()).toContain('The edited lazy chunk ran')
  })

  it('rejects invalid options with a message naming the option and the accepted values', async () => {
    const root = await app()
    await expect(viteBuild(root, [preencode({ formats: ['brotly' as 'brotli'] })])).rejects.toThrow(
      /Unknown format `brotly` in `formats`\. Accepted: .*brotli/,
    )
    await expect(viteBuild(root, [preencode({ report: 'yes' as unknown as boolean })])).rejects.toThrow(
      /`report`.*true, false, 'json' or 'html'/,
    )
    await expect(viteBuild(root, [preencode({ levels: { zstd: 40 } })])).rejects.toThrow(/`levels\.zstd` is 40/)
  })
})

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the build')
    await new Promise((done) => setTimeout(done, 50))
  }
}
