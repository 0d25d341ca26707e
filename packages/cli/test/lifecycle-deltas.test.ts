// Delta updates across a site's life (issue 19): a page edited after the build, a compress or deploy killed
// while it writes deltas into the site, and a site folder that cannot be written. The real
// binary against real folders; a local folder stands for the live site.
import { spawnSync } from 'node:child_process'
import { appendFile, chmod, chown, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { decodeWithDictionary, readManifest } from '@preencode/core'
import { describe, expect, it } from 'vitest'
import { BIN, cli, cliKilled, IS_ROOT, listing, NOBODY, workDirs } from './lifecycle-helpers.js'

const { workDir } = workDirs('lifecycle-deltas')

/** Version `v` of asset `n`: versions differ in one function, so a delta is tiny. */
const asset = (n: number, v: number): string =>
  Array.from(
    { length: 1500 },
    (_, i) => `export function f${n}_${i}(x) { return x * ${i % 17} + "${(i * 7919 + n) % 1000}" }\n`,
  )
    .join('')
    .replace(`function f${n}_100(`, `function v${v}_${n}_100(`)

const hash = (n: number, v: number): string => `${String(n).padStart(2, '0')}v${v}Ab12`.slice(0, 8)

/** A site of `assets` hashed scripts at version `v`, and a page naming them. */
async function build(dir: string, v: number, assets: number): Promise<void> {
  await rm(dir, { recursive: true, force: true })
  await mkdir(join(dir, 'assets'), { recursive: true })
  const scripts: string[] = []
  for (let n = 0; n < assets; n++) {
    await writeFile(join(dir, 'assets', `app${n}-${hash(n, v)}.js`), asset(n, v))
    scripts.push(`<script type="module" src="/assets/app${n}-${hash(n, v)}.js"></script>`)
  }
  await writeFile(join(dir, 'index.html'), `<!doctype html>${scripts.join('')}\n${'<p>hello</p>\n'.repeat(300)}`)
}

/** Every delta the manifest records is in `www` and decodes, against version 1, to version 2. */
async function expectDeltasIn(www: string, site: string): Promise<string[]> {
  const manifest = await readManifest(site)
  const paths: string[] = []
  for (const file of manifest.files) {
    const n = /assets\/app(\d+)-/.exec(file.path)?.[1]
    for (const delta of file.deltas ?? []) {
      const body = await readFile(join(www, delta.path))
      const decoded = await decodeWithDictionary(delta.encoding, body, Buffer.from(asset(Number(n), 1)))
      expect(decoded.toString(), delta.path).toBe(asset(Number(n), 2))
      paths.push(delta.path)
    }
  }
  return paths.sort()
}

describe('a page edited after the build (issue 19, case 2)', () => {
  it('deploy keeps Use-As-Dictionary and the deltas exactly as without the edit', async () => {
    const work = await workDir()
    const site = join(work, 'site')
    const cache = join(work, 'cache')
    await build(site, 1, 2)
    expect(cli(['compress', site, '--cache-dir', cache], work).status).toBe(0)
    expect(cli(['deploy', site, '--to', join(work, 'www')], work).status).toBe(0)
    await cp(join(work, 'www'), join(work, 'www-control'), { recursive: true })
    await build(site, 2, 2)
    expect(cli(['compress', site, '--cache-dir', cache], work).status).toBe(0)

    // Without an edit, for comparison.
    await cp(site, join(work, 'site-control'), { recursive: true })
    const control = cli(['deploy', join(work, 'site-control'), '--to', join(work, 'www-control')], work)
    expect(control.status, control.stderr).toBe(0)
    const expected = await expectDeltasIn(join(work, 'www-control'), join(work, 'site-control'))
    expect(expected.length).toBeGreaterThanOrEqual(4)

    // A post-build step appends a line to the page.
    await appendFile(join(site, 'index.html'), '<!-- built by CI -->\n')
    const run = cli(['deploy', site, '--to', join(work, 'www')], work)
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/out of date/)
    const manifest = await readManifest(site)
    expect(manifest.files.filter((f) => f.useAsDictionary !== undefined).map((f) => f.path)).toEqual([
      `assets/app0-${hash(0, 2)}.js`,
      `assets/app1-${hash(1, 2)}.js`,
    ])
    expect(await expectDeltasIn(join(work, 'www'), site)).toEqual(expected)
  })
})

describe('a deploy killed while it writes deltas (issue 19, case 6)', () => {
  it('the rerun neither takes the deltas for originals nor leaves them behind', async () => {
    const work = await workDir()
    const site = join(work, 'site')
    const www = join(work, 'www')
    await build(site, 1, 24)
    expect(cli(['compress', site, '--no-cache'], work).status).toBe(0)
    expect(cli(['deploy', site, '--to', www], work).status).toBe(0)
    await build(site, 2, 24)
    // No cache: the deploy encodes every delta (brotli 11 against each previous version).
    expect(cli(['compress', site, '--no-cache'], work).status).toBe(0)
    const deltaOnDisk = async (): Promise<boolean> =>
      (await listing(site).catch(() => [])).some((p) => /\.dict\/[^.][^/]*\.(dcb|dcz)$/.test(p))
    const killed = await cliKilled(['deploy', site, '--to', www], work, deltaOnDisk)
    expect(killed, 'the kill landed while deltas were being written').toBe(true)
    expect(await deltaOnDisk()).toBe(true)

    const rerun = cli(['deploy', site, '--to', www], work)
    expect(rerun.status, rerun.stderr).toBe(0)
    const manifest = await readManifest(site)
    expect(manifest.files.filter((f) => f.path.includes('.dict/'))).toEqual([])
    expect((await expectDeltasIn(www, site)).length).toBeGreaterThanOrEqual(24)
    // Every delta file in the site is one the manifest records; no journal is left.
    const recorded = new Set(manifest.files.flatMap((f) => (f.deltas ?? []).map((d) => d.path)))
    expect((await listing(site)).filter((p) => p.includes('.dict/') && !recorded.has(p))).toEqual([])
    expect(await listing(site)).not.toContain('.preencode-journal')
  })
})

describe('a compress killed while it writes deltas (issue 19, case 4)', () => {
  it('the rerun records every delta it keeps, takes none for an original, and leaves no journal', async () => {
    const work = await workDir()
    const site = join(work, 'site')
    const cache = join(work, 'cache')
    await build(site, 1, 24)
    expect(cli(['compress', site, '--cache-dir', cache], work).status).toBe(0)
    await build(site, 2, 24)
    // The cache remembers version 1: this compress writes deltas against it, after the variants.
    const deltaOnDisk = async (): Promise<boolean> =>
      (await listing(site).catch(() => [])).some((p) => /\.dict\/[^.][^/]*\.(dcb|dcz)$/.test(p))
    const killed = await cliKilled(['compress', site, '--cache-dir', cache], work, deltaOnDisk)
    expect(killed, 'the kill landed while deltas were being written').toBe(true)

    const rerun = cli(['compress', site, '--cache-dir', cache], work)
    expect(rerun.status, rerun.stderr).toBe(0)
    const manifest = await readManifest(site)
    expect(manifest.files.filter((f) => f.path.includes('.dict/'))).toEqual([])
    expect((await expectDeltasIn(site, site)).length).toBeGreaterThanOrEqual(24)
    const recorded = new Set(manifest.files.flatMap((f) => (f.deltas ?? []).map((d) => d.path)))
    expect((await listing(site)).filter((p) => p.includes('.dict/') && !recorded.has(p))).toEqual([])
    expect(await listing(site)).not.toContain('.preencode-journal')
  })
})

describe('a site folder that cannot be written (issue 19, case 3)', () => {
  it('deploys as built with one warning: no deltas can be written into it', async ({ skip }) => {
    skip(!IS_ROOT, 'missing on this machine: root (the run is made as nobody)')
    const work = await workDir()
    const site = join(work, 'site')
    const www = join(work, 'www')
    await build(site, 1, 2)
    expect(cli(['compress', site, '--no-cache'], work).status).toBe(0)
    expect(cli(['deploy', site, '--to', www], work).status).toBe(0)
    await build(site, 2, 2)
    expect(cli(['compress', site, '--no-cache'], work).status).toBe(0)
    // Root writes anywhere: deploy as nobody, who may write the target but not the site.
    await chmod(work, 0o755)
    for (const path of [www, ...(await listing(www)).map((p) => join(www, p))]) await chown(path, NOBODY, NOBODY)
    for (const sub of await listing(www)) await chown(join(www, sub, '..'), NOBODY, NOBODY)
    const run = spawnSync(process.execPath, [BIN, 'deploy', site, '--to', www], {
      cwd: www,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', CI: '', HOME: www },
      uid: NOBODY,
      gid: NOBODY,
    })
    expect(run.stderr).not.toMatch(/\n\s+at /)
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1)
    expect(run.stderr).toMatch(/warning: .*site.*(read-only|cannot be written|permission denied)/)
    for (const n of [0, 1]) {
      const path = `assets/app${n}-${hash(n, 2)}.js`
      expect((await readFile(join(www, path), 'utf8')) === asset(n, 2)).toBe(true)
    }
  })
})
