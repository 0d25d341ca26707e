// Size budgets from preencode.config.json's `compress` section, checked by the real binary after
// a real compression: under budget exits 0, over budget prints the table and exits 1, and in
// GitHub Actions the same table is appended to $GITHUB_STEP_SUMMARY.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { type CompressReport, type ManifestFile, readManifest, type SizeBudget } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterEach, describe, expect, it } from 'vitest'

const BIN = resolve(import.meta.dirname, '../../dist/bin.js')

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** A site with one big JS chunk, two pages and a stylesheet; low levels keep the test quick. */
async function project(budgets: SizeBudget[] | unknown): Promise<{
  work: string
  run: (...args: string[]) => { status: number | null; stdout: string; stderr: string }
  summary: string
}> {
  const tmp = await tempDir('budgets')
  cleanups.push(tmp.remove)
  const work = tmp.path
  const dir = join(work, 'dist')
  await mkdir(join(dir, 'assets'), { recursive: true })
  await mkdir(join(dir, 'blog'), { recursive: true })
  let seed = 7
  const words = (n: number): string =>
    Array.from(
      { length: n },
      () => ['chunk', 'render', 'state', 'props', 'effect', 'memo', 'ref'][(seed = (seed * 16807) % 2147483647) % 7],
    ).join(' ')
  await writeFile(join(dir, 'assets', 'app-1a2b3c.js'), `export const text = ${JSON.stringify(words(30_000))}\n`)
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><title>home</title>${'<p>welcome to the site</p>\n'.repeat(400)}`,
  )
  await writeFile(
    join(dir, 'blog', 'index.html'),
    `<!doctype html><title>blog</title>${'<article>post</article>\n'.repeat(300)}`,
  )
  await writeFile(join(dir, 'assets', 'style-9f8e.css'), 'main { display: grid; gap: 1rem; }\n'.repeat(200))
  await writeFile(
    join(work, 'preencode.config.json'),
    JSON.stringify({ compress: { levels: { brotli: 5, zstd: 3, gzip: 6 }, budgets } }),
  )
  const summary = join(work, 'step-summary.md')
  const run = (...args: string[]) => {
    const result = spawnSync(process.execPath, [BIN, 'compress', 'dist', ...args], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', CI: '', XDG_CACHE_HOME: join(work, 'cache'), GITHUB_STEP_SUMMARY: summary },
    })
    return { status: result.status, stdout: result.stdout, stderr: result.stderr }
  }
  return { work, run, summary }
}

async function fileOf(work: string, path: string): Promise<ManifestFile> {
  const file = (await readManifest(join(work, 'dist'))).files.find((f) => f.path === path)
  if (!file) throw new Error(`${path} is not in the manifest`)
  return file
}

const variantSize = (file: ManifestFile, format: string): number => file.variants.find((v) => v.format === format)!.size

describe('size budgets', () => {
  it('under budget: exit 0, an ok row per budget, and the summary written for GitHub Actions', async () => {
    const { run, summary } = await project([
      { path: 'assets/*.js', format: 'brotli', max: '1 MB' },
      { path: '**/*.html', max: 100_000 },
    ])
    const result = run()
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/budgets: 3 files within 2 budgets/)
    expect(result.stdout).toMatch(/ok\s+assets\/app-1a2b3c\.js\s+brotli/)
    const markdown = await readFile(summary, 'utf8')
    expect(markdown).toMatch(/^### preencode ✅ budgets: 3 files within 2 budgets/)
    expect(markdown).toMatch(/\| ok \| `assets\/app-1a2b3c\.js` \| brotli \|/)
  })

  it('over budget: the table names the file, its size and the limit; exit 1 with the verdict and the table on stderr', async () => {
    const { work, run, summary } = await project([{ path: 'assets/*.js', format: 'brotli', max: '2 kB' }])
    const result = run()
    expect(result.status).toBe(1)
    const app = await fileOf(work, 'assets/app-1a2b3c.js')
    const brotli = variantSize(app, 'brotli')
    expect(brotli).toBeGreaterThan(2000)
    expect(result.stdout).toMatch(/budgets: 1 of 1 files over budget/)
    const row = result.stdout.split('\n').find((line) => line.includes('OVER'))
    expect(row).toMatch(
      new RegExp(
        `OVER\\s+assets/app-1a2b3c\\.js\\s+brotli\\s+${(brotli / 1000).toFixed(1)} kB\\s+2\\.0 kB\\s+assets/\\*\\.js`,
      ),
    )
    // One error, the same as a plugin's: the verdict, then the table.
    const [first, ...table] = result.stderr.trim().split('\n')
    expect(first).toMatch(/^\[preencode\] \[cli\] Size budgets failed: 1 files over budget .*preencode\.config\.json/)
    expect(table[0]).toBe('budgets: 1 of 1 files over budget')
    expect(table.find((line) => line.includes('OVER'))).toBe(row)
    // The build itself happened: variants on disk, the summary has the same verdict.
    expect(existsSync(join(work, 'dist', 'assets', 'app-1a2b3c.js.br'))).toBe(true)
    expect(await readFile(summary, 'utf8')).toMatch(/\| \*\*OVER\*\* \| `assets\/app-1a2b3c\.js` \| brotli \|/)
  })

  it('each format measures its own bytes: a limit between the sizes passes one format and fails another', async () => {
    const { work, run } = await project([])
    expect(run().status).toBe(0)
    const app = await fileOf(work, 'assets/app-1a2b3c.js')
    const sizes = {
      original: app.size,
      gzip: variantSize(app, 'gzip'),
      brotli: variantSize(app, 'brotli'),
      zstd: variantSize(app, 'zstd'),
    }
    for (const format of ['original', 'gzip', 'brotli', 'zstd'] as const) {
      const size = sizes[format]
      await writeFile(
        join(work, 'preencode.config.json'),
        JSON.stringify({
          compress: {
            levels: { brotli: 5, zstd: 3, gzip: 6 },
            budgets: [{ path: 'assets/app-*.js', format, max: size }],
          },
        }),
      )
      expect(run('--json').status, `${format} at exactly ${size} B`).toBe(0)
      await writeFile(
        join(work, 'preencode.config.json'),
        JSON.stringify({
          compress: {
            levels: { brotli: 5, zstd: 3, gzip: 6 },
            budgets: [{ path: 'assets/app-*.js', format, max: size - 1 }],
          },
        }),
      )
      const over = run('--json')
      expect(over.status, `${format} at ${size - 1} B`).toBe(1)
      const report = JSON.parse(over.stdout) as CompressReport
      expect(report.budgets?.failures).toEqual([
        { budget: 'assets/app-*.js', format, path: 'assets/app-1a2b3c.js', size, max: size - 1, over: true },
      ])
      // --json keeps stdout pure JSON; the table goes to stderr.
      expect(over.stderr).toMatch(/OVER\s+assets\/app-1a2b3c\.js/)
    }
  })

  it('globs pick the files; a budget that matches nothing fails as a likely typo', async () => {
    const { run } = await project([
      { path: '**/index.html', format: 'gzip', max: '50 kB' },
      { path: 'asets/*.js', max: '1 MB' },
    ])
    const result = run()
    expect(result.status).toBe(1)
    expect(result.stdout).toMatch(/ok\s+(blog\/)?index\.html\s+gzip/)
    expect(result.stdout).toMatch(/NO MATCH\s+-\s+brotli\s+-\s+1\.00 MB\s+asets\/\*\.js/)
    expect(result.stderr).toMatch(/1 budgets match no file/)
    // Both pages were measured: `**/index.html` matches the root one too.
    const json = JSON.parse(run('--json').stdout) as CompressReport
    expect(json.budgets?.checks.map((c) => c.path).sort()).toEqual(['blog/index.html', 'index.html'])
  })

  it('a bad budget is reported against the config file, naming the entry', async () => {
    const { run } = await project([{ path: 'assets/*.js', format: 'br', max: '150 kB' }])
    const bad = run()
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(
      /`compress\.budgets\[0\]\.format` in \S+preencode\.config\.json is "br"; accepted: original, brotli, zstd, gzip\./,
    )
    const { run: run2 } = await project([{ path: 'assets/*.js', max: '150 kilobytes' }])
    expect(run2().stderr).toMatch(
      /`compress\.budgets\[0\]\.max` in \S+ is "150 kilobytes"; use a number of bytes or a size like '150 kB'/,
    )
  })
})
