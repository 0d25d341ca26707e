// The real binary (`node packages/cli/dist/bin.js`), as users and CI run it, on a small site.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'
import type { CompressReport } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterEach, describe, expect, it } from 'vitest'

const BIN = resolve(import.meta.dirname, '../../dist/bin.js')

interface Result {
  status: number | null
  stdout: string
  stderr: string
}

/** Runs the CLI; the user cache folder is a throw-away one under the test's folder. */
function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Result {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: '', XDG_CACHE_HOME: join(cwd, 'user-cache'), ...env },
  })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** A small static site: HTML, JS, CSS, SVG, a tiny file and a PNG-like binary. */
async function site(): Promise<{ work: string; dir: string; cache: string }> {
  const tmp = await tempDir('cli')
  cleanups.push(tmp.remove)
  const dir = join(tmp.path, 'site')
  await mkdir(join(dir, 'assets'), { recursive: true })
  const paragraph = '<p>preencode writes .gz, .br and .zst files beside each compressible file of a site.</p>\n'
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><html><head><title>site</title></head><body>\n${paragraph.repeat(40)}</body></html>\n`,
  )
  await writeFile(
    join(dir, 'assets', 'app-3f2a9c1b.js'),
    `export const rows = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ id: i, label: `row ${i}` })))}\n`,
  )
  await writeFile(join(dir, 'assets', 'style-9a8b7c6d.css'), 'body { margin: 0; font-family: system-ui; }\n'.repeat(60))
  await writeFile(
    join(dir, 'logo.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="10" height="10"/>'.repeat(60)}</svg>\n`,
  )
  await writeFile(join(dir, 'robots.txt'), 'User-agent: *\n')
  await writeFile(join(dir, 'photo.png'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)))
  return { work: tmp.path, dir, cache: join(tmp.path, 'cache') }
}

async function variants(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).filter((f) => /\.(gz|br|zst)$/.test(f)).sort()
}

describe('preencode compress', () => {
  it('compresses a folder, prints the report on stdout and exits 0; variants decode', async () => {
    const { work, dir, cache } = await site()
    const run = cli(['compress', dir, '--cache-dir', cache], work)
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^preencode: 4 of 6 files -> 12 variants in .* \(12 compressed, 0 from cache\)/)
    expect(run.stdout).toMatch(/brotli\s+4/)
    const original = await readFile(join(dir, 'index.html'))
    expect(gunzipSync(await readFile(join(dir, 'index.html.gz'))).equals(original)).toBe(true)
    expect(brotliDecompressSync(await readFile(join(dir, 'index.html.br'))).equals(original)).toBe(true)
    expect(zstdDecompressSync(await readFile(join(dir, 'index.html.zst'))).equals(original)).toBe(true)
    expect(await variants(dir)).not.toContain('photo.png.gz')
    expect(existsSync(join(dir, '.preencode-manifest.json'))).toBe(true)
  })

  it('a second run says everything came from the cache', async () => {
    const { work, dir, cache } = await site()
    expect(cli(['compress', dir, '--cache-dir', cache], work).status).toBe(0)
    await writeFile(join(dir, 'index.html.br'), 'not brotli') // a damaged variant is rewritten from the cache
    const second = cli(['compress', dir, '--cache-dir', cache], work)
    expect(second.status).toBe(0)
    expect(second.stdout).toMatch(/all 12 cached, nothing compressed/)
    const original = await readFile(join(dir, 'index.html'))
    expect(brotliDecompressSync(await readFile(join(dir, 'index.html.br'))).equals(original)).toBe(true)
  })

  it('without a project: the user cache ($XDG_CACHE_HOME/preencode), no node_modules anywhere, hit from any folder', async () => {
    const { work, dir } = await site()
    const elsewhere = join(work, 'elsewhere')
    await mkdir(elsewhere)
    const first = cli(['compress', dir], work)
    expect(first.status).toBe(0)
    expect(first.stdout).toMatch(/12 compressed, 0 from cache/)
    expect(existsSync(join(work, 'user-cache', 'preencode', 'v1'))).toBe(true)
    const second = cli(['compress', dir], elsewhere, { XDG_CACHE_HOME: join(work, 'user-cache') })
    expect(second.stdout).toMatch(/all 12 cached, nothing compressed/)
    for (const folder of [work, elsewhere, dir]) expect(existsSync(join(folder, 'node_modules')), folder).toBe(false)
  })

  it('without XDG_CACHE_HOME the user cache is ~/.cache/preencode', async () => {
    const { work, dir } = await site()
    const home = join(work, 'home')
    expect(cli(['compress', dir], work, { XDG_CACHE_HOME: '', HOME: home }).status).toBe(0)
    expect(existsSync(join(home, '.cache', 'preencode', 'v1'))).toBe(true)
    expect(cli(['compress', dir], work, { XDG_CACHE_HOME: '', HOME: home }).stdout).toMatch(/all 12 cached/)
    expect(existsSync(join(work, 'node_modules'))).toBe(false)
  })

  it("inside a project: the project's node_modules/.cache/preencode, whatever the working directory", async () => {
    const { work, dir } = await site()
    const project = join(work, 'project')
    await mkdir(join(project, 'node_modules'), { recursive: true })
    await writeFile(join(project, 'package.json'), '{"private":true}')
    await rename(dir, join(project, 'dist'))
    expect(cli(['compress', join(project, 'dist')], work).status).toBe(0)
    expect(existsSync(join(project, 'node_modules', '.cache', 'preencode', 'v1'))).toBe(true)
    expect(cli(['compress', 'dist'], project).stdout).toMatch(/all 12 cached/)
    expect(existsSync(join(work, 'user-cache'))).toBe(false)
    expect(existsSync(join(work, 'node_modules'))).toBe(false)
  })

  it('--formats, --level-*, --threshold and --no-cache', async () => {
    const { work, dir } = await site()
    const run = cli(
      [
        'compress',
        dir,
        '--formats',
        'gzip,brotli',
        '--level-gzip',
        '6',
        '--level-brotli',
        '4',
        '--level-zstd',
        '3',
        '--threshold',
        '100',
        '--no-cache',
      ],
      work,
    )
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/cache off/)
    const written = await variants(dir)
    expect(written.some((f) => f.endsWith('.zst'))).toBe(false)
    expect(written).toContain('index.html.gz')
    expect(written).toContain('index.html.br')
    expect(existsSync(join(work, 'node_modules'))).toBe(false)
  })

  it("reads the config file's compress section; flags win; its mistakes name the file and key", async () => {
    const { work, dir } = await site()
    await writeFile(
      join(work, 'preencode.config.json'),
      JSON.stringify({ compress: { formats: ['gzip'], threshold: 100, exclude: ['logo.svg'] } }),
    )
    const run = cli(['compress', dir, '--no-cache'], work)
    expect(run.stderr).toBe('')
    expect(await variants(dir)).toEqual(['assets/app-3f2a9c1b.js.gz', 'assets/style-9a8b7c6d.css.gz', 'index.html.gz'])
    expect(cli(['compress', dir, '--no-cache', '--formats', 'brotli'], work).status).toBe(0)
    expect(await variants(dir)).toEqual(['assets/app-3f2a9c1b.js.br', 'assets/style-9a8b7c6d.css.br', 'index.html.br'])
    await writeFile(join(work, 'preencode.config.json'), JSON.stringify({ compress: { levels: { brotli: 12 } } }))
    const bad = cli(['compress', dir], work)
    expect(bad.status).toBe(1)
    expect(bad.stderr.trim()).toBe(
      `[preencode] [options] \`compress.levels.brotli\` in ${join(work, 'preencode.config.json')} is 12; brotli accepts a whole number from 0 to 11, or 'max'.`,
    )
  })

  it("an option from vite-plugin-compression2 is refused with preencode's name for it", async () => {
    const { work, dir } = await site()
    await writeFile(
      join(work, 'preencode.config.json'),
      JSON.stringify({ compress: { algorithms: ['gzip', 'brotliCompress'], deleteOriginalAssets: true } }),
    )
    const run = cli(['compress', dir], work)
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(
      /Unknown option `compress\.algorithms` in \S+preencode\.config\.json \(another plugin's name\): use `formats: \['gzip', 'brotli', 'zstd'\]`/,
    )
    await writeFile(
      join(work, 'preencode.config.json'),
      JSON.stringify({ compress: { formats: ['gzip', 'brotliCompress'] } }),
    )
    expect(cli(['compress', dir], work).stderr).toMatch(
      /Unknown format `brotliCompress` in `compress\.formats` in \S+preencode\.config\.json \(use `brotli`\)/,
    )
    await writeFile(join(work, 'preencode.config.json'), JSON.stringify({ compress: { deleteOriginalAssets: true } }))
    expect(cli(['compress', dir], work).stderr).toMatch(
      /`compress\.deleteOriginalAssets` in \S+ \(another plugin's name\): use `keepOriginals: false`/,
    )
  })

  it('a vite-plugin-compression2 option typed as a flag names the flag to use instead', async () => {
    const { work, dir } = await site()
    const algorithms = cli(['compress', dir, '--algorithms', 'gzip'], work)
    expect(algorithms.status).toBe(1)
    expect(algorithms.stderr.trim()).toBe(
      "[preencode] [cli] Unknown option `--algorithms` (another plugin's name): use --formats gzip,brotli,zstd. See docs/migrating-from-vite-plugin-compression2.md.",
    )
    expect(cli(['compress', dir, '--deleteOriginalAssets'], work).stderr).toMatch(/use --no-keep-originals/)
    // Elsewhere, where the replacement flag does not exist, the plain list of options.
    expect(cli(['verify', 'http://127.0.0.1:1/', dir, '--algorithms', 'gzip'], work).stderr).toMatch(
      /Unknown option `--algorithms`\. Options: --limit/,
    )
  })

  it('--include is the whole set (any type it names), --exclude wins; both repeatable and comma-separated', async () => {
    const { work, dir } = await site()
    await writeFile(join(dir, 'notes.custom'), 'a custom text format that preencode does not list\n'.repeat(60))
    const run = cli(
      [
        'compress',
        dir,
        '--no-cache',
        '--formats',
        'gzip',
        '--include',
        '**/*.{js,css},*.custom',
        '--include=logo.svg',
        '--exclude',
        'assets/style-*',
      ],
      work,
    )
    expect(run.stderr).toBe('')
    expect(await variants(dir)).toEqual(['assets/app-3f2a9c1b.js.gz', 'logo.svg.gz', 'notes.custom.gz'])
    expect(cli(['compress', dir, '--include'], work).stderr).toMatch(/--include needs a glob/)
  })

  it('--concurrency is checked and used', async () => {
    const { work, dir } = await site()
    expect(cli(['compress', dir, '--no-cache', '--concurrency', '1'], work).status).toBe(0)
    expect((await variants(dir)).length).toBe(12)
    const bad = cli(['compress', dir, '--concurrency', '0'], work)
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(/--concurrency is 0; it must be a whole number >= 1/)
  })

  it('--json prints only the report as JSON', async () => {
    const { work, dir, cache } = await site()
    const run = cli(['compress', dir, '--json', '--cache-dir', cache], work)
    expect(run.status).toBe(0)
    const report = JSON.parse(run.stdout) as CompressReport
    expect(report.dir).toBe(dir)
    expect(report.compressedFiles).toBe(4)
    expect(report.formats.map((f) => f.format).sort()).toEqual(['brotli', 'gzip', 'zstd'])
  })

  it('--quiet prints nothing', async () => {
    const { work, dir, cache } = await site()
    const run = cli(['compress', dir, '--quiet', '--cache-dir', cache], work)
    expect(run).toMatchObject({ status: 0, stdout: '', stderr: '' })
    expect((await variants(dir)).length).toBe(12)
  })

  it('--no-keep-originals keeps only the variants', async () => {
    const { work, dir, cache } = await site()
    const run = cli(['compress', dir, '--no-keep-originals', '--cache-dir', cache], work)
    expect(run.status).toBe(0)
    expect(existsSync(join(dir, 'index.html'))).toBe(false)
    expect(existsSync(join(dir, 'index.html.gz'))).toBe(true)
    expect(existsSync(join(dir, 'robots.txt'))).toBe(true) // too small: nothing replaces it
  })

  it('an unknown format fails with exit 1, naming it and the accepted formats', async () => {
    const { work, dir } = await site()
    const run = cli(['compress', dir, '--formats', 'brotly'], work)
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/brotly/)
    expect(run.stderr).toMatch(/brotli, zstd, gzip/)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('a level out of range or not a number fails with exit 1 and the accepted range', async () => {
    const { work, dir } = await site()
    const high = cli(['compress', dir, '--level-brotli', '12'], work)
    expect(high.status).toBe(1)
    // The flag's name, not the plugin option's (`levels.brotli`).
    expect(high.stderr.trim()).toBe(
      "[preencode] [options] --level-brotli is 12; brotli accepts a whole number from 0 to 11, or 'max'.",
    )
    const word = cli(['compress', dir, '--level-gzip', 'best'], work)
    expect(word.status).toBe(1)
    expect(word.stderr).toMatch(/--level-gzip is "best"; gzip accepts a whole number from 1 to 9, or 'max'/)
    const max = cli(['compress', dir, '--formats', 'gzip', '--level-gzip', 'max', '--no-cache', '--quiet'], work)
    expect(max.status, max.stderr).toBe(0)
    const page = await readFile(join(dir, 'index.html'))
    expect(gunzipSync(await readFile(join(dir, 'index.html.gz'))).equals(page)).toBe(true)
  })

  it('a missing directory, or a file where a directory is expected, fails with exit 1', async () => {
    const { work, dir } = await site()
    const missing = cli(['compress', join(work, 'nope')], work)
    expect(missing.status).toBe(1)
    expect(missing.stderr).toMatch(/nope does not exist/)
    const file = cli(['compress', join(dir, 'index.html')], work)
    expect(file.status).toBe(1)
    expect(file.stderr).toMatch(/is not a directory/)
    const none = cli(['compress'], work)
    expect(none.status).toBe(1)
    expect(none.stderr).toMatch(/Missing required positional argument: DIR/)
  })

  it('an unknown flag or command is a clear error, not silently ignored', async () => {
    const { work, dir } = await site()
    const flag = cli(['compress', dir, '--formts', 'gzip'], work)
    expect(flag.status).toBe(1)
    expect(flag.stderr).toMatch(/Unknown option `--formts`.*--formats/)
    const command = cli(['compres', dir], work)
    expect(command.status).toBe(1)
    expect(command.stderr).toMatch(/Unknown command `compres`\. Commands: compress/)
  })

  it('--help prints usage and exits 0, for the command and for `compress`', async () => {
    const { work } = await site()
    const sub = cli(['compress', '--help'], work)
    expect(sub.status).toBe(0)
    expect(sub.stdout).toMatch(/USAGE preencode compress/)
    for (const flag of [
      '--formats',
      '--level-brotli',
      '--threshold',
      '--no-keep-originals',
      '--json',
      '--no-cache',
      '--quiet',
    ]) {
      expect(sub.stdout).toContain(flag)
    }
    // Fits an 80-column terminal: no padding to the longest description, long lines wrapped.
    for (const line of sub.stdout.split('\n')) {
      expect(line).not.toMatch(/\s$/)
      expect(line.length).toBeLessThanOrEqual(80)
    }
    expect(sub.stdout).toMatch(
      /^ +--formats=<list> +Comma-separated formats: brotli,zstd,gzip\n {20,}\(default: all\)$/m,
    )
    const main = cli(['--help'], work)
    expect(main.stderr).toBe('')
    expect(main.status).toBe(0)
    expect(main.stdout).toMatch(/compress/)
  })

  it('Ctrl-C (SIGINT) stops with exit 1 and a clear line, leaving no temp or partial file', async () => {
    const { work, dir } = await site()
    // Enough brotli-11 work that the run is still busy when the signal comes.
    let seed = 1
    const word = (): string =>
      ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma'][(seed = (seed * 16807) % 2147483647) % 6]!
    for (let i = 0; i < 60; i++) {
      await writeFile(join(dir, `page-${i}.html`), Array.from({ length: 40_000 }, word).join(' '))
    }
    const child = spawn(process.execPath, [BIN, 'compress', dir, '--no-cache', '--formats', 'brotli'], {
      cwd: work,
      env: { ...process.env, NO_COLOR: '1' },
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
    })
    // Interrupt once the run is underway (its first file written), not after a fixed delay: on
    // a loaded machine the process may still be starting, before its Ctrl-C handler exists.
    let running = true
    const exited = new Promise<number | null>((done) =>
      child.once('exit', (code) => {
        running = false
        done(code)
      }),
    )
    while (running && !(await readdir(dir)).some((f) => f.endsWith('.br') || f.includes('.tmp-'))) {
      await new Promise((done) => setTimeout(done, 20))
    }
    child.kill('SIGINT')
    const status = await exited
    expect(status).toBe(1)
    expect(stderr).toMatch(/Interrupted/)
    const leftovers = (await readdir(dir)).filter((f) => f.includes('.tmp-'))
    expect(leftovers).toEqual([])
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.br'))) {
      const original = await readFile(join(dir, file.slice(0, -3)))
      expect(brotliDecompressSync(await readFile(join(dir, file))).equals(original), file).toBe(true)
    }
  })

  it('--version prints the version', async () => {
    const { work } = await site()
    const run = cli(['--version'], work)
    expect(run.status).toBe(0)
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
  })
})
