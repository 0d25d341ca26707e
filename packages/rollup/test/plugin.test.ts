// Plain Rollup 4 builds (rollup() + write() + close(), as Rollup's CLI does) of a small fixture.
import { cp, readdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'
import { type CompressReport, MANIFEST_FILENAME, readManifest } from '@preencode/core'
import preencode, { preencode as namedPreencode, type PreencodeRollupOptions } from '@preencode/rollup'
import { serverConfig } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { type OutputOptions, type Plugin, type RollupLog, rollup, watch } from 'rollup'
import { afterEach, describe, expect, it } from 'vitest'

const FIXTURE = join(import.meta.dirname, 'fixtures', 'lib')
const DECODERS = { '.gz': gunzipSync, '.br': brotliDecompressSync, '.zst': zstdDecompressSync } as const
const ALL = Object.keys(DECODERS)

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function fixture(): Promise<string> {
  const dir = await tempDir('rollup')
  cleanups.push(dir.remove)
  await cp(FIXTURE, dir.path, { recursive: true })
  return dir.path
}

function options(root: string, extra: PreencodeRollupOptions = {}): PreencodeRollupOptions {
  return { report: 'json', threshold: 200, levels: { brotli: 5, zstd: 3 }, cache: join(root, '.cache'), ...extra }
}

/** One build the way Rollup's CLI runs it: write every output, then close (closeBundle). */
async function rollupBuild(
  root: string,
  plugins: Plugin[],
  outputs: OutputOptions[],
): Promise<{ reports: CompressReport[]; logs: string[] }> {
  const logs: string[] = []
  const bundle = await rollup({
    input: join(root, 'src/main.js'),
    plugins,
    onLog: (_level, log: RollupLog) => {
      logs.push(log.message)
    },
  })
  for (const output of outputs) await bundle.write(output)
  await bundle.close()
  const reports = logs
    .filter((m) => m.includes('{"dir"'))
    .map((m) => JSON.parse(m.slice(m.indexOf('{"dir"'))) as CompressReport)
  return { reports, logs }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort()
}

async function expectDecodes(dir: string, path: string): Promise<string> {
  const original = await readFile(join(dir, path))
  for (const [ext, decode] of Object.entries(DECODERS)) {
    expect(decode(await readFile(join(dir, path + ext))).equals(original), path + ext).toBe(true)
  }
  return original.toString()
}

const variants = (files: string[], path: string): string[] => ALL.filter((ext) => files.includes(path + ext))

describe('@preencode/rollup', () => {
  it('exports the plugin as default and named, closing last and alone', () => {
    expect(preencode).toBe(namedPreencode)
    const plugin = preencode()
    expect(plugin.name).toBe('preencode:rollup')
    expect(plugin.closeBundle).toMatchObject({ order: 'post', sequential: true })
  })

  it('compresses the chunks of a plain Rollup build; variants decode to the originals', async () => {
    const root = await fixture()
    const { reports } = await rollupBuild(root, [preencode(options(root))], [{ dir: join(root, 'dist'), format: 'es' }])
    const files = await listFiles(join(root, 'dist'))
    const lazy = files.find((f) => /^lazy-.*\.js$/.test(f))
    expect(lazy).toBeDefined()
    for (const path of ['main.js', lazy!]) {
      expect(variants(files, path), path).toEqual(ALL)
      await expectDecodes(join(root, 'dist'), path)
    }
    const manifest = await readManifest(join(root, 'dist'))
    expect(manifest.files.map((f) => f.path)).toContain('main.js')
    expect(reports.map((r) => r.dir)).toEqual([join(root, 'dist')])
  })

  it("waits for other plugins' closeBundle (parallel in Rollup) and compresses their final bytes", async () => {
    const root = await fixture()
    const late: Plugin = {
      name: 'test:late',
      async writeBundle(output) {
        await writeFile(join(output.dir!, 'late.txt'), 'placeholder '.repeat(200))
      },
      async closeBundle() {
        await new Promise((done) => setTimeout(done, 150))
        await writeFile(join(root, 'dist', 'late.txt'), `final ${'written in closeBundle, '.repeat(80)}`)
      },
    }
    await rollupBuild(root, [preencode(options(root)), late], [{ dir: join(root, 'dist'), format: 'es' }])
    const files = await listFiles(join(root, 'dist'))
    expect(variants(files, 'late.txt')).toEqual(ALL)
    expect(await expectDecodes(join(root, 'dist'), 'late.txt')).toMatch(/^final /)
  })

  it('compresses every output directory, each with its own manifest', async () => {
    const root = await fixture()
    const { reports } = await rollupBuild(
      root,
      [preencode(options(root))],
      [
        { dir: join(root, 'out/es'), format: 'es' },
        { dir: join(root, 'out/cjs'), format: 'cjs' },
      ],
    )
    for (const dir of ['out/es', 'out/cjs']) {
      const files = await listFiles(join(root, dir))
      expect(variants(files, 'main.js'), dir).toEqual(ALL)
      expect(files).toContain(MANIFEST_FILENAME)
    }
    expect(reports.map((r) => r.dir).sort()).toEqual([join(root, 'out/cjs'), join(root, 'out/es')])
  })

  it('a second build with unchanged content is all cache hits', async () => {
    const root = await fixture()
    const output = [{ dir: join(root, 'dist'), format: 'es' as const }]
    const [cold] = (await rollupBuild(root, [preencode(options(root))], output)).reports
    const [warm] = (await rollupBuild(root, [preencode(options(root))], output)).reports
    expect(cold!.cache.misses).toBeGreaterThan(0)
    expect(warm!.cache.misses).toBe(0)
    expect(warm!.cache.hits).toBe(cold!.cache.misses)
  })

  it('in watch mode, recompresses after each rebuild (closing each result, as the CLI does)', async () => {
    const root = await fixture()
    const logs: string[] = []
    const watcher = watch({
      input: join(root, 'src/main.js'),
      plugins: [preencode(options(root))],
      output: { dir: join(root, 'dist'), format: 'es' },
      onLog: (_level, log) => {
        logs.push(log.message)
      },
      watch: { skipWrite: false },
    })
    const reports = (): CompressReport[] =>
      logs.filter((m) => m.includes('{"dir"')).map((m) => JSON.parse(m.slice(m.indexOf('{"dir"'))) as CompressReport)
    watcher.on('event', (event) => {
      if (event.code === 'BUNDLE_END') void event.result.close()
    })
    try {
      await waitFor(() => reports().length >= 1)
      const lazySource = join(root, 'src/lazy.js')
      await writeFile(
        lazySource,
        (await readFile(lazySource, 'utf8')).replace('The lazy chunk ran', 'The edited lazy chunk ran'),
      )
      await waitFor(() => reports().length >= 2)
    } finally {
      await watcher.close()
    }
    const [cold, rebuilt] = reports()
    expect(cold!.cache.misses).toBe(6) // main.js and the lazy chunk, 3 formats each
    // Rollup does not empty dist: the edited lazy chunk and main.js (which names its new hash)
    // are compressed; the previous lazy chunk comes from the cache and its variants stay as they are.
    expect(rebuilt!.cache.misses).toBe(6)
    expect(rebuilt!.cache.hits).toBe(3)
    expect(rebuilt!.variantsUnchanged).toBe(3)
    const files = await listFiles(join(root, 'dist'))
    const lazy = files.find((f) => /^lazy-.*\.js$/.test(f) && files.includes(`${f}.br`) && !f.endsWith('.br'))
    expect(await expectDecodes(join(root, 'dist'), lazy!)).toContain('The edited lazy chunk ran')
  })

  it('writes serverConfigs from the final manifest, like the Vite plugin; one in the output is listed in it', async () => {
    const root = await fixture()
    const dist = join(root, 'dist')
    const nginx = { server: 'nginx', flavor: 'stock', root: '/srv/site' } as const
    await rollupBuild(
      root,
      [
        preencode(
          options(root, {
            serverConfigs: [
              { server: 'apache', path: join(dist, '.htaccess') },
              { ...nginx, path: join(root, 'deploy/site.conf') },
            ],
          }),
        ),
      ],
      [{ dir: dist, format: 'es' }],
    )
    const manifest = await readManifest(dist)
    expect(manifest.files.map((f) => f.path)).toContain('.htaccess')
    expect(await readFile(join(dist, '.htaccess'), 'utf8')).toBe(serverConfig(manifest, { server: 'apache' }))
    expect(await readFile(join(root, 'deploy/site.conf'), 'utf8')).toBe(serverConfig(manifest, nginx))
  })

  it('in watch mode, a failed run is logged and the watcher keeps rebuilding; outside watch mode it fails the build', async () => {
    // CloudFront cannot serve a site built with keepOriginals: false: generating its function
    // fails after compression, on every build.
    const root = await fixture()
    const failing = options(root, {
      keepOriginals: false,
      serverConfigs: [{ server: 'cloudfront', path: join(root, 'cf.js') }],
    })
    await expect(rollupBuild(root, [preencode(failing)], [{ dir: join(root, 'dist'), format: 'es' }])).rejects.toThrow(
      /keepOriginals: false/,
    )

    const logs: string[] = []
    const errors: unknown[] = []
    let builds = 0
    const watcher = watch({
      input: join(root, 'src/main.js'),
      plugins: [preencode(failing)],
      output: { dir: join(root, 'dist'), format: 'es' },
      onLog: (_level, log) => {
        logs.push(log.message)
      },
      watch: { skipWrite: false },
    })
    watcher.on('event', (event) => {
      if (event.code === 'BUNDLE_END')
        void event.result.close().then(() => {
          builds++
        })
      if (event.code === 'ERROR') errors.push(event.error)
    })
    const failures = (): string[] => logs.filter((m) => m.includes('keepOriginals: false'))
    try {
      await waitFor(() => failures().length >= 1 && builds >= 1)
      const lazySource = join(root, 'src/lazy.js')
      await writeFile(
        lazySource,
        (await readFile(lazySource, 'utf8')).replace('The lazy chunk ran', 'The edited lazy chunk ran'),
      )
      await waitFor(() => failures().length >= 2 && builds >= 2)
    } finally {
      await watcher.close()
    }
    expect(errors).toEqual([])
    expect(failures()[0]).toMatch(/\[preencode\].*CloudFront cannot decode/)
  })

  it('prints the table by default through the Rollup log', async () => {
    const root = await fixture()
    const { logs } = await rollupBuild(
      root,
      [preencode({ ...options(root), report: true })],
      [{ dir: join(root, 'dist'), format: 'es' }],
    )
    expect(logs.join('\n')).toMatch(/preencode: \d+ of \d+ files -> \d+ variants/)
  })

  it('fails the build on invalid options, naming the option and the accepted values', async () => {
    const root = await fixture()
    await expect(rollupBuild(root, [preencode({ formats: ['brotly' as 'brotli'] })], [])).rejects.toThrow(
      /Unknown format `brotly` in `formats`\. Accepted: .*brotli/,
    )
    await expect(rollupBuild(root, [preencode({ threshold: -1 })], [])).rejects.toThrow(/`threshold` is -1/)
  })
})

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the build')
    await new Promise((done) => setTimeout(done, 50))
  }
}
