// The options people bring from other Vite plugins, on real Vite builds: `include`/`exclude`
// with globs and RegExps as in Rollup's createFilter, size budgets that fail the build, and
// a vite-plugin-compression2 option refused with preencode's name for it.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readManifest } from '@preencode/core'
import preencode, { type PreencodeViteOptions } from '@preencode/vite'
import { build, type Plugin } from 'vite'
import { afterEach, describe, expect, it } from 'vitest'
import {
  captureLogger,
  expectVariantsDecode,
  listFiles,
  perTestCleanup,
  VARIANT_EXTENSIONS,
  variantsOf,
} from './helpers.js'

const { app } = perTestCleanup()

function options(root: string, extra: PreencodeViteOptions = {}): PreencodeViteOptions {
  return { report: 'json', threshold: 200, levels: { brotli: 5, zstd: 3 }, cache: join(root, '.test-cache'), ...extra }
}

async function viteBuild(root: string, plugins: Plugin[]): Promise<ReturnType<typeof captureLogger>> {
  const capture = captureLogger()
  await build({ root, configFile: false, logLevel: 'info', customLogger: capture.logger, plugins })
  return capture
}

const summaryBefore = process.env.GITHUB_STEP_SUMMARY
afterEach(() => {
  if (summaryBefore === undefined) delete process.env.GITHUB_STEP_SUMMARY
  else process.env.GITHUB_STEP_SUMMARY = summaryBefore
})

describe('include / exclude as in Rollup createFilter', () => {
  it('a RegExp and globs pick the files; include is the whole set and adds a type preencode does not list; exclude wins', async () => {
    const root = await app()
    await writeFile(join(root, 'public', 'notes.custom'), 'a text format preencode does not list\n'.repeat(80))
    await viteBuild(root, [
      preencode(options(root, { include: [/\.js$/, 'index.html', '*.custom'], exclude: 'assets/lazy-*' })),
    ])
    const dist = join(root, 'dist')
    const files = await listFiles(dist)
    const js = files.filter((f) => /^assets\/.*\.js$/.test(f))
    const lazy = js.filter((f) => f.startsWith('assets/lazy-'))
    expect(lazy).toHaveLength(1)
    for (const path of ['index.html', 'notes.custom', ...js.filter((f) => !lazy.includes(f))]) {
      expect(variantsOf(files, path), path).toEqual([...VARIANT_EXTENSIONS])
      await expectVariantsDecode(dist, path, VARIANT_EXTENSIONS)
    }
    // Compressible, but outside `include` (css, json) or matched by `exclude` (the lazy chunk).
    for (const path of [...lazy, 'data.json', ...files.filter((f) => f.endsWith('.css'))])
      expect(variantsOf(files, path), path).toEqual([])
    const manifest = await readManifest(dist)
    expect(manifest.files.find((f) => f.path === 'data.json')?.variants).toEqual([])
  })
})

describe('size budgets in the plugin', () => {
  it('within budget: the build passes and the job summary gets the table', async () => {
    const root = await app()
    const summary = join(root, 'summary.md')
    process.env.GITHUB_STEP_SUMMARY = summary
    const capture = await viteBuild(root, [
      preencode(
        options(root, {
          budgets: [
            { path: 'assets/*.js', max: '1 MB' },
            { path: /\.html$/, format: 'original', max: 100_000 },
          ],
        }),
      ),
    ])
    const [report] = capture.reports()
    expect(report?.budgets?.ok).toBe(true)
    expect(report?.budgets?.checks.map((c) => c.path)).toContain('index.html')
    expect(await readFile(summary, 'utf8')).toMatch(/✅ budgets: \d+ files within 2 budgets/)
  })

  it('over budget: the build fails with the table naming the file, and the output is still complete', async () => {
    const root = await app()
    const summary = join(root, 'summary.md')
    process.env.GITHUB_STEP_SUMMARY = summary
    const failure = await viteBuild(root, [
      preencode(options(root, { budgets: [{ path: 'assets/index-*.js', format: 'gzip', max: '100 B' }] })),
    ]).then(
      () => undefined,
      (error: unknown) => error as Error,
    )
    expect(failure?.message).toMatch(
      /Size budgets failed: 1 files over budget in .*dist \(budgets are set in the `budgets` option\):\nbudgets: 1 of 1 files over budget/,
    )
    const manifest = await readManifest(join(root, 'dist'))
    const main = manifest.files.find((f) => /^assets\/index-.*\.js$/.test(f.path))!
    const gzip = main.variants.find((v) => v.format === 'gzip')!.size
    expect(failure?.message).toMatch(
      new RegExp(`OVER\\s+${main.path.replace(/[.]/g, '\\.')}\\s+gzip\\s+${(gzip / 1000).toFixed(1)} kB\\s+100 B`),
    )
    expect(await readFile(summary, 'utf8')).toMatch(/\| \*\*OVER\*\* \| `assets\/index-.*\.js` \| gzip \|/)
  })

  it("a bad budget or a vite-plugin-compression2 option fails with preencode's way forward", async () => {
    const root = await app()
    await expect(viteBuild(root, [preencode({ budgets: [{ path: 'assets/*.js', max: 'big' }] })])).rejects.toThrow(
      /`budgets\[0\]\.max` is "big"/,
    )
    const peer = { algorithms: ['gzip', 'brotliCompress'] } as unknown as PreencodeViteOptions
    await expect(viteBuild(root, [preencode(peer)])).rejects.toThrow(
      /Unknown option `algorithms` \(another plugin's name\): use `formats: \['gzip', 'brotli', 'zstd'\]`/,
    )
  })
})

describe("report: 'html'", () => {
  it('writes preencode-report.html beside the output (not into it) with every file of the manifest', async () => {
    const root = await app()
    const capture = await viteBuild(root, [preencode(options(root, { report: 'html' }))])
    const dist = join(root, 'dist')
    const html = await readFile(join(root, 'preencode-report.html'), 'utf8')
    const json = /<script type="application\/json" id="preencode-data">(.*?)<\/script>/s.exec(html)?.[1]
    const data = JSON.parse(json!) as { files: { path: string; size: number; variants: Record<string, number> }[] }
    const manifest = await readManifest(dist)
    expect(data.files).toEqual(
      manifest.files.map((f) => ({
        path: f.path,
        size: f.size,
        contentType: f.contentType,
        variants: Object.fromEntries(f.variants.map((v) => [v.format, v.size])),
      })),
    )
    expect(await listFiles(dist)).not.toContain('preencode-report.html')
    // The text table is printed too, and where the file went.
    expect(capture.lines.some((line) => /preencode: \d+ of \d+ files/.test(line))).toBe(true)
    expect(capture.lines).toContain('preencode: wrote preencode-report.html (open it in a browser)')
  })
})
