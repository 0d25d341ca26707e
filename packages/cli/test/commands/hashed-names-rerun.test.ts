// A rerun of `compress` keeps its asset deltas when one hashed name has no digit and fewer than
// two capitals (`lib-abcdefGh.js`; issue 30 item 2). Two rules decided what a versioned file is:
// the delta writer took `lib-abcdefGh.js` for one, the cache policy did not, so the remembered
// build never looked like this one and the rerun found every file "already held": 4 deltas, then 0.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, readManifestOf, workDirs } from '../lifecycle-helpers.js'

const { workDir } = workDirs('hashed-names-rerun')

/** Version `v` of asset `n`: versions differ in one function, so a delta is tiny. */
const asset = (n: number, v: number): string =>
  Array.from({ length: 800 }, (_, i) => `export function f${n}_${i}(x) { return x * ${i % 17} + "${i * 31 + n}" }\n`)
    .join('')
    .replace(`function f${n}_100(`, `function v${v}_${n}_100(`)

async function build(dir: string, v: number): Promise<void> {
  await rm(dir, { recursive: true, force: true })
  await mkdir(join(dir, 'assets'), { recursive: true })
  const names: string[] = []
  for (let n = 0; n < 4; n++) {
    const name = `assets/app${n}-${n}v${v}Abc12.js`
    await writeFile(join(dir, name), asset(n, v))
    names.push(name)
  }
  // A library whose hash has no digit and one capital, unchanged between the builds.
  await writeFile(join(dir, 'assets/lib-abcdefGh.js'), asset(9, 0))
  names.push('assets/lib-abcdefGh.js')
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html>${names.map((n) => `<script type="module" src="/${n}"></script>`).join('')}\n${'<p>hi</p>\n'.repeat(200)}`,
  )
}

const deltaCount = async (site: string): Promise<number> =>
  (await readManifestOf(site)).files.reduce((total, file) => total + (file.deltas?.length ?? 0), 0)

describe('a hashed name with no digit and one capital', () => {
  it('does not cost the other assets their deltas on a rerun', async () => {
    const work = await workDir()
    const site = join(work, 'site')
    const cache = join(work, 'cache')
    await build(site, 1)
    expect(cli(['compress', site, '--cache-dir', cache], work).status).toBe(0)
    await build(site, 2)
    const first = cli(['compress', site, '--cache-dir', cache], work)
    expect(first.status, first.stderr).toBe(0)
    const written = await deltaCount(site)
    expect(written).toBeGreaterThanOrEqual(4)
    const manifest = await readManifestOf(site)
    expect(manifest.files.find((f) => f.path === 'assets/lib-abcdefGh.js')?.deltas).toBeUndefined()

    const rerun = cli(['compress', site, '--cache-dir', cache], work)
    expect(rerun.status, rerun.stderr).toBe(0)
    expect(await deltaCount(site)).toBe(written)
    expect(await readFile(join(site, 'index.html'), 'utf8')).toContain('lib-abcdefGh.js')
  })
})
