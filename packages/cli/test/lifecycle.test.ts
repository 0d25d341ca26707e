// A site lives across builds and deploys (issue 7): the real binary against real folders, as a
// user meets each case — files edited after `compress`, a user's own `.gz`, a symlink out of the
// site. Helpers in lifecycle-helpers.ts.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  BIN,
  cli,
  expectVariantsDecodeTo,
  listing,
  page,
  put,
  type Result,
  site,
  workDirs,
} from './lifecycle-helpers.js'

const { workDir } = workDirs('lifecycle')

describe('files edited or added after `compress` (case 1)', () => {
  it('deploy recompresses them first: the target gets the new page, its new variants and the new file', async () => {
    const work = await workDir()
    const dir = await site(work)
    expect(cli(['compress', dir, '--cache-dir', join(work, 'cache')], work).status).toBe(0)
    // A post-build step (a search indexer, a sitemap writer) edits a page and adds one.
    await put(dir, 'index.html', page('home v2, edited after the build'))
    await put(dir, 'late/extra.html', page('added after the build'))
    const run = cli(['deploy', dir, '--to', join(work, 'out')], work)
    expect(run.stderr).toMatch(/manifest.*(out of date|stale)|changed since/i)
    expect(run.status, run.stderr).toBe(0)
    const out = join(work, 'out')
    const index = await readFile(join(dir, 'index.html'))
    expect((await readFile(join(out, 'index.html'))).equals(index)).toBe(true)
    await expectVariantsDecodeTo(out, 'index.html', index)
    const extra = await readFile(join(dir, 'late/extra.html'))
    expect((await readFile(join(out, 'late/extra.html'))).equals(extra)).toBe(true)
    await expectVariantsDecodeTo(out, 'late/extra.html', extra)
    // A second deploy finds nothing to do.
    expect(cli(['deploy', dir, '--to', out], work).stdout).toMatch(/uploaded 0 objects/)
  })

  it('a removed original is not deployed, and its variants go from the site', async () => {
    const work = await workDir()
    const dir = await site(work)
    expect(cli(['compress', dir, '--cache-dir', join(work, 'cache')], work).status).toBe(0)
    await rm(join(dir, 'about/index.html'))
    const run = cli(['deploy', dir, '--to', join(work, 'out')], work)
    expect(run.status, run.stderr).toBe(0)
    expect(await listing(join(work, 'out'))).not.toContain('about/index.html.br')
    expect(await listing(dir)).not.toContain('about/index.html.br')
  })

  it('`config` reads a manifest brought up to date with the disk', async () => {
    const work = await workDir()
    const dir = await site(work)
    expect(cli(['compress', dir, '--cache-dir', join(work, 'cache')], work).status).toBe(0)
    await put(dir, 'late/extra.html', page('added after the build'))
    const config = cli(['config', 'caddy', dir], work)
    expect(config.status, config.stderr).toBe(0)
    const manifest = JSON.parse(await readFile(join(dir, '.preencode-manifest.json'), 'utf8')) as {
      files: { path: string; variants: unknown[] }[]
    }
    expect(manifest.files.find((f) => f.path === 'late/extra.html')?.variants).toHaveLength(3)
    await expectVariantsDecodeTo(dir, 'late/extra.html', await readFile(join(dir, 'late/extra.html')))
  })
})

describe("a user's own file at a sidecar name (case 3)", () => {
  it('is neither removed nor overwritten: a clash is a clear error naming it, and nothing is written', async () => {
    const work = await workDir()
    const dir = join(work, 'site')
    const csv = Array.from({ length: 400 }, (_, i) => `${i},${i * 3},row ${i}`).join('\n')
    await put(dir, 'data.csv', csv)
    const archive = gzipSync(csv, { level: 1 }) // the user's own download, not what preencode writes
    await put(dir, 'data.csv.gz', archive)
    await put(dir, 'index.html', page('home'))

    const brotliOnly = cli(['compress', dir, '--formats', 'brotli', '--no-cache'], work)
    expect(brotliOnly.status, brotliOnly.stderr).toBe(0)
    expect(brotliOnly.stdout).not.toMatch(/stale/)
    expect((await readFile(join(dir, 'data.csv.gz'))).equals(archive)).toBe(true)

    const before = await listing(dir)
    const all = cli(['compress', dir, '--no-cache'], work)
    expect(all.status).toBe(1)
    expect(all.stderr.trim().split('\n')).toHaveLength(1)
    expect(all.stderr).toContain(join(dir, 'data.csv.gz'))
    expect(all.stderr).toMatch(/If it is yours: move or delete it/)
    expect((await readFile(join(dir, 'data.csv.gz'))).equals(archive)).toBe(true)
    expect(await listing(dir)).toEqual(before)
  })

  it('sidecars of a run whose manifest was lost hold the bytes preencode writes: they are taken over, not a clash', async () => {
    const work = await workDir()
    const dir = await site(work)
    const cache = join(work, 'cache')
    expect(cli(['compress', dir, '--cache-dir', cache], work).status).toBe(0)
    await rm(join(dir, '.preencode-manifest.json'))
    const again = cli(['compress', dir, '--cache-dir', cache], work)
    expect(again.status, again.stderr).toBe(0)
    const manifest = JSON.parse(await readFile(join(dir, '.preencode-manifest.json'), 'utf8')) as {
      files: { path: string; variants: unknown[] }[]
    }
    expect(manifest.files.map((f) => f.path)).toEqual([
      'about/index.html',
      'assets/app-3f2a9c1b.js',
      'index.html',
      'photo.png',
    ])
    expect(manifest.files.find((f) => f.path === 'index.html')?.variants).toHaveLength(3)
  })
})

describe('symlinks (case 4)', () => {
  it('a symlink to a folder outside the site is skipped with a warning; nothing is written there', async () => {
    const work = await workDir()
    const dir = await site(work)
    const outside = join(work, 'shared')
    await put(outside, 'page.html', page('outside the site'))
    await symlink(outside, join(dir, 'shared'))
    const inside = join(work, 'site', 'assets')
    await symlink(join(inside, 'app-3f2a9c1b.js'), join(dir, 'app-latest.js'))

    const run = cli(['compress', dir, '--no-cache'], work)
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/skipped 1 symlink .*shared -> .*shared/)
    expect(await listing(outside)).toEqual(['page.html'])
    // A symlink to a file inside the site is served like a file, so it gets variants of its own.
    await expectVariantsDecodeTo(dir, 'app-latest.js', await readFile(join(inside, 'app-3f2a9c1b.js')))
    const manifest = JSON.parse(await readFile(join(dir, '.preencode-manifest.json'), 'utf8')) as {
      files: { path: string }[]
    }
    expect(manifest.files.map((f) => f.path)).not.toContain('shared/page.html')
    // And deploy never copies what is behind the link.
    expect(cli(['deploy', dir, '--to', join(work, 'out')], work).status).toBe(0)
    expect(existsSync(join(work, 'out', 'shared'))).toBe(false)
  })
})

describe('open files (case 6)', () => {
  /** Runs the binary with the open-file limit at 256, macOS's default. */
  function cliLimited(args: string[], cwd: string): Result {
    const run = spawnSync('/bin/sh', ['-c', 'ulimit -n 256 && exec "$0" "$@"', process.execPath, BIN, ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', CI: '' },
    })
    return { status: run.status, stdout: run.stdout, stderr: run.stderr }
  }

  it('a site of 3,000 pages compresses, deploys and configures under `ulimit -n 256`', async () => {
    const work = await workDir()
    const dir = join(work, 'site')
    for (let i = 0; i < 3000; i++) {
      const folder = join(dir, `chapter-${i % 30}`)
      if (i < 30) await mkdir(folder, { recursive: true })
      await writeFile(join(folder, `page-${i}.html`), page(`page ${i}`))
    }
    const compress = cliLimited(
      ['compress', dir, '--formats', 'gzip,zstd', '--level-gzip', '1', '--level-zstd', '1', '--no-cache', '--quiet'],
      work,
    )
    expect(compress.stderr).toBe('')
    expect(compress.status).toBe(0)
    const manifest = JSON.parse(await readFile(join(dir, '.preencode-manifest.json'), 'utf8')) as {
      files: { variants: unknown[] }[]
    }
    expect(manifest.files.filter((f) => f.variants.length === 2)).toHaveLength(3000)
    // Uploads far above the limit asked for: the handles stay bounded anyway.
    const deploy = cliLimited(['deploy', dir, '--to', join(work, 'out'), '--concurrency', '400'], work)
    expect(deploy.status, deploy.stderr).toBe(0)
    expect(deploy.stdout).toMatch(/uploaded 9000 objects/)
    const again = cliLimited(['deploy', dir, '--to', join(work, 'out'), '--concurrency', '400'], work)
    expect(again.stdout, again.stderr).toMatch(/uploaded 0 objects/)
    await put(dir, 'chapter-1/page-1.html', page('edited'))
    expect(cliLimited(['config', 'nginx', dir], work).status).toBe(0)
    expect(gunzipSync(await readFile(join(dir, 'chapter-1/page-1.html.gz'))).toString()).toBe(page('edited'))
  })
})
