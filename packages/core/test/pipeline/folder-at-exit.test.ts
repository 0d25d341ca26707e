// The synchronous look a build process takes as it exits (folder-at-exit.ts) decides by
// reconcile's own rule: on one folder edited every way a later tool edits one, it finds exactly
// what `manifestDrift` finds (stale: changed, removed, damaged; added: only what the compress
// rule would compress), and nothing on a folder that is only touched.
import { access, rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { readManifest } from '../../src/manifest/manifest.js'
import { completeFoldersSync, folderDriftSync } from '../../src/pipeline/folder-at-exit.js'
import { manifestDrift } from '../../src/pipeline/reconcile.js'
import { compress as compressDirectory } from '../../src/run/compress.js'
import { put, randomBytesOf, textOf } from '../fixtures.js'

let dir: Awaited<ReturnType<typeof tempDir>>
let site: string
beforeEach(async () => {
  dir = await tempDir('folder-at-exit')
  site = join(dir.path, 'site')
  await put(site, 'index.html', textOf(6000, 1))
  await put(site, 'about.html', textOf(5000, 2))
  await put(site, 'gone.html', textOf(5000, 3))
  await put(site, 'assets/app-Ab3dEf9h.js', textOf(9000, 4))
  await put(site, 'data.json', textOf(4000, 5))
  await compressDirectory(site, { cache: join(dir.path, 'cache'), levels: { brotli: 4 }, exclude: ['skip/**'] })
})
afterEach(async () => {
  await dir.remove()
})

it('finds nothing in a folder as compressed, or only touched (mtime moved, same bytes)', async () => {
  expect(folderDriftSync(site)).toEqual({ root: expect.any(String), stale: [], removed: [], added: [] })
  const later = new Date(Date.now() + 60_000)
  await utimes(join(site, 'index.html'), later, later)
  expect(folderDriftSync(site)?.stale).toEqual([])
})

it('finds what manifestDrift finds: a same-size edit, a removed original, a lost variant, and new files the rule compresses', async () => {
  const edited = textOf(6000, 9)
  await writeFile(join(site, 'index.html'), edited)
  await rm(join(site, 'gone.html'))
  await rm(join(site, 'data.json.br'))
  await put(site, 'late/page.html', textOf(3000, 6))
  await put(site, 'late/tiny.html', 'small')
  await put(site, 'late/photo.png', randomBytesOf(4000))
  await put(site, 'skip/excluded.html', textOf(3000, 7))
  const sync = folderDriftSync(site)
  const drift = await manifestDrift(sync!.root, await readManifest(site))
  expect(sync?.stale).toEqual([...drift.changed, ...drift.removed, ...drift.damaged].sort())
  expect(sync?.stale).toEqual(['data.json', 'gone.html', 'index.html'])
  expect(sync?.removed).toEqual(['gone.html'])
  expect(drift.added.sort()).toEqual(['late/page.html', 'late/photo.png', 'late/tiny.html', 'skip/excluded.html'])
  expect(sync?.added).toEqual(['late/page.html'])
})

it('a folder without a manifest, or gone, is not its business', async () => {
  await rm(join(site, '.preencode-manifest.json'))
  expect(folderDriftSync(site)).toBeUndefined()
  expect(folderDriftSync(join(dir.path, 'nowhere'))).toBeUndefined()
})

it('an original a later step deleted (React Router SPA: .vite/manifest.json) loses its variants at exit, unnamed', async () => {
  await rm(join(site, 'gone.html'))
  const [result] = completeFoldersSync([site])
  expect(result?.found).toEqual([])
  for (const suffix of ['.br', '.gz', '.zst'])
    await expect(access(join(site, `gone.html${suffix}`))).rejects.toThrow(/ENOENT/)
  expect((await readManifest(site)).files.map((file) => file.path)).not.toContain('gone.html')
})
