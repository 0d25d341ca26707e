// A first `compress` killed before it wrote its manifest (issue 19, case 4): the real binary,
// SIGKILLed once variants are on disk, then the site rebuilt (its pages change, the variants of
// the killed run stay) and compressed again. The rerun must converge on its own: no file "in the
// way", no leftovers, and the user's own compressed files untouched.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { tempDir } from '@preencode/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { cli, cliKilled, expectVariantsDecodeTo, listing, page, put, readManifestOf } from './lifecycle-helpers.js'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** `count` pages of a few KB each, in version `v` (a rebuild rewrites every page). */
async function pages(dir: string, count: number, v: number): Promise<void> {
  for (let i = 0; i < count; i++) await put(dir, `docs/page-${i}.html`, page(`page ${i}, build ${v}`).repeat(6))
}

describe('a first compress killed before its manifest', () => {
  it('the rerun after a rebuild converges: no block, no leftovers, the user’s own .gz untouched', async () => {
    const tmp = await tempDir('lifecycle-interrupted')
    cleanups.push(tmp.remove)
    const dir = join(tmp.path, 'site')
    await pages(dir, 120, 1)
    // The user's own compressed files: a download and a gzip of a file preencode leaves alone.
    const download = gzipSync(Buffer.from('a release tarball, say\n'.repeat(500)), { level: 1 })
    await put(dir, 'download.tar.gz', download)
    await put(dir, 'notes.txt', 'small')
    const notes = gzipSync(Buffer.from('small'), { level: 1 })
    await put(dir, 'notes.txt.gz', notes)

    const variantsOnDisk = async (): Promise<number> =>
      (await listing(dir).catch(() => [])).filter((p) => /page-\d+\.html\.(br|gz|zst)$/.test(p)).length
    const killed = await cliKilled(
      ['compress', dir, '--no-cache', '--no-deltas', '--concurrency', '2'],
      tmp.path,
      async () => (await variantsOnDisk()) >= 6,
    )
    expect(killed, 'the kill landed before the run finished').toBe(true)
    expect(await listing(dir)).not.toContain('.preencode-manifest.json')
    expect(await variantsOnDisk()).toBeGreaterThanOrEqual(6)

    // The site generator rebuilds: every page changes, the killed run's variants stay.
    await pages(dir, 120, 2)
    const rerun = cli(['compress', dir, '--no-cache', '--no-deltas'], tmp.path)
    expect(rerun.stderr).not.toMatch(/in the way/)
    expect(rerun.status, rerun.stderr).toBe(0)
    for (let i = 0; i < 120; i += 17) {
      const path = `docs/page-${i}.html`
      await expectVariantsDecodeTo(dir, path, await readFile(join(dir, path)))
    }
    const manifest = await readManifestOf(dir)
    const recorded = new Set(manifest.files.flatMap((f) => [f.path, ...f.variants.map((v) => v.path)]))
    const unrecorded = (await listing(dir)).filter((p) => !recorded.has(p))
    expect(unrecorded).toEqual(['.preencode-manifest.json'])
    expect((await readFile(join(dir, 'download.tar.gz'))).equals(download)).toBe(true)
    expect((await readFile(join(dir, 'notes.txt.gz'))).equals(notes)).toBe(true)
    expect(manifest.files.find((f) => f.path === 'download.tar.gz')?.variants).toEqual([])
  })

  it('a file the user put at a journaled name after the kill is theirs: a clash, not overwritten', async () => {
    const tmp = await tempDir('lifecycle-interrupted-user')
    cleanups.push(tmp.remove)
    const dir = join(tmp.path, 'site')
    await pages(dir, 120, 1)
    const gzipped = async (): Promise<string[]> =>
      (await listing(dir).catch(() => [])).filter((p) => /page-\d+\.html\.gz$/.test(p))
    const killed = await cliKilled(
      ['compress', dir, '--no-cache', '--no-deltas', '--concurrency', '2'],
      tmp.path,
      async () => (await gzipped()).length > 0,
    )
    expect(killed).toBe(true)
    const [taken] = await gzipped()
    const mine = gzipSync(Buffer.from('my own archive of this page'), { level: 1 })
    await writeFile(join(dir, taken!), mine)
    const rerun = cli(['compress', dir, '--no-cache', '--no-deltas'], tmp.path)
    expect(rerun.status).toBe(1)
    expect(rerun.stderr).toContain(`${taken} is in the way`)
    expect((await readFile(join(dir, taken!))).equals(mine)).toBe(true)
  })
})
