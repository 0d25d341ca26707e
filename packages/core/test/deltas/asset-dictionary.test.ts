// The asset dictionary (issue 37): a chunk whose name stem is new in the next build (code split
// differently) gets a delta against the previous build's asset dictionary, which holds its code
// under the old name; a chunk whose stem survived keeps its own previous version; the dictionary
// is announced with a wide `match`, linked from every page, content-hashed and fresh for a year.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { decodeWithDictionary } from '../../src/codecs/dictionary.js'
import { dictionaryId, sha256Of } from '../../src/codecs/dictionary-hash.js'
import { prepareAssetDictionary } from '../../src/deltas/asset-dictionary.js'
import { cacheVersionSource } from '../../src/deltas/version-store.js'
import { writeDeltas } from '../../src/deltas/write-deltas.js'
import { resolveDeltaOptions } from '../../src/options/delta-options.js'
import { compress as compressDirectory } from '../../src/run/compress.js'

/** Some kilobytes of code nothing else shares (a seeded generator: the same text every run). */
function moduleCode(name: string, seed: number): string {
  let state = seed
  const lines: string[] = []
  for (let i = 0; i < 300; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    lines.push(`export function ${name}_${i}(v){return v*${state % 9973}+"${state.toString(36)}"}`)
  }
  return `${lines.join('\n')}\n`
}

const page = (scripts: string[]): string =>
  `<!doctype html><html><head><title>app</title>${scripts.map((s) => `<script type="module" src="/${s}"></script>`).join('')}</head><body></body></html>\n`

describe('asset dictionary', () => {
  let site: Awaited<ReturnType<typeof tempDir>>
  beforeEach(async () => {
    site = await tempDir('assets')
  })
  afterEach(async () => {
    await rm(`${site.path}-cache`, { recursive: true, force: true })
    await site.remove()
  })

  /** One build; `history`: the dictionary may be the one the cache's history remembers (as `compress` runs it). */
  async function build(files: Record<string, string>, history = false) {
    await rm(join(site.path, 'assets'), { recursive: true, force: true })
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(site.path, path)), { recursive: true })
      await writeFile(join(site.path, path), text)
    }
    const options = resolveDeltaOptions({ assets: true })
    const cache = `${site.path}-cache`
    const source = history ? cacheVersionSource(cache, site.path) : undefined
    const prepared = await prepareAssetDictionary(site.path, options.maxDictionaryBytes, source)
    const { manifest } = await compressDirectory(site.path, { cache })
    return { prepared, ...(await writeDeltas(site.path, manifest, options, { cacheDir: cache })) }
  }

  it('gives a chunk with a new name a delta against the previous build’s code, and keeps a surviving stem on its own version', async () => {
    const routes = moduleCode('routes', 7)
    const first = await build({
      'index.html': page(['assets/index-Ab12Cd34.js', 'assets/routes-Ef56Gh78.js']),
      'assets/index-Ab12Cd34.js': moduleCode('main', 3),
      'assets/routes-Ef56Gh78.js': routes,
    })
    expect(first.prepared).toMatchObject({ files: 2, linked: 1 })
    const dictionaryPath = first.prepared!.path
    expect(dictionaryPath).toMatch(/^preencode-assets-[0-9a-f]{16}\.txt$/)
    expect(await readFile(join(site.path, 'index.html'), 'utf8')).toContain(
      `<head><link rel="compression-dictionary" href="${dictionaryPath}">`,
    )
    const entry = first.manifest.files.find((f) => f.path === dictionaryPath)!
    expect(entry).toMatchObject({ useAsDictionary: '*', cacheClass: 'immutable' })
    expect(entry.matchDest).toBeUndefined()
    const previousDictionary = await readFile(join(site.path, dictionaryPath))

    // Next build: the routes chunk is split under a new stem, the entry chunk changes a little.
    const second = await build({
      'index.html': page(['assets/index-Xy12Zw34.js', 'assets/pages-Qr56St78.js']),
      'assets/index-Xy12Zw34.js': `${moduleCode('main', 3)}export const edition = 2\n`,
      'assets/pages-Qr56St78.js': `${routes}export const more = 1\n`,
    })
    const file = (path: string) => second.manifest.files.find((f) => f.path === path)!
    const renamed = file('assets/pages-Qr56St78.js')
    const id = dictionaryId(sha256Of(previousDictionary))
    const delta = renamed.deltas!.find((d) => d.dictionary === id)!
    const brotli = renamed.variants.find((v) => v.format === 'brotli')!.size
    expect(delta.size).toBeLessThan(brotli * 0.05)
    expect(
      (
        await decodeWithDictionary(delta.encoding, await readFile(join(site.path, delta.path)), previousDictionary)
      ).equals(await readFile(join(site.path, renamed.path))),
    ).toBe(true)
    // The surviving stem: a delta against its own previous version (what the browser advertises:
    // `index-*.js` is a longer match than `*`).
    const own = dictionaryId(sha256Of(Buffer.from(moduleCode('main', 3))))
    expect(file('assets/index-Xy12Zw34.js').deltas!.some((d) => d.dictionary === own)).toBe(true)
    // The new dictionary is itself a delta against the previous one (same `*` match).
    const next = file(second.prepared!.path)
    expect(next.deltas!.some((d) => d.dictionary === id)).toBe(true)
    expect(await readFile(join(site.path, 'index.html'), 'utf8')).toContain(`href="${second.prepared!.path}"`)
  })

  it('keeps the dictionary visitors hold while a fresh one would add little, and refreshes it once most of the code is new', async () => {
    const routes = moduleCode('routes', 7)
    const first = await build(
      {
        'index.html': page(['assets/index-Ab12Cd34.js', 'assets/routes-Ef56Gh78.js']),
        'assets/index-Ab12Cd34.js': moduleCode('main', 3),
        'assets/routes-Ef56Gh78.js': routes,
      },
      true,
    )
    expect(first.prepared).toMatchObject({ kept: false })
    const held = await readFile(join(site.path, first.prepared!.path))

    // A small change and a chunk with a new name: the visitor's copy still holds nearly all of it.
    const second = await build(
      {
        'index.html': page(['assets/index-Xy12Zw34.js', 'assets/pages-Qr56St78.js']),
        'assets/index-Xy12Zw34.js': `${moduleCode('main', 3)}export const edition = 2\n`,
        'assets/pages-Qr56St78.js': `${routes}export const more = 1\n`,
      },
      true,
    )
    expect(second.prepared).toMatchObject({ kept: true, path: first.prepared!.path })
    expect((await readFile(join(site.path, first.prepared!.path))).equals(held)).toBe(true)
    // The page links the dictionary the visitor holds: nothing to fetch again.
    expect(await readFile(join(site.path, 'index.html'), 'utf8')).toContain(`href="${first.prepared!.path}"`)
    const file = (path: string) => second.manifest.files.find((f) => f.path === path)!
    expect(file(first.prepared!.path)).toMatchObject({ useAsDictionary: '*' })
    const renamed = file('assets/pages-Qr56St78.js')
    const delta = renamed.deltas!.find((d) => d.dictionary === dictionaryId(sha256Of(held)))!
    expect(delta.size).toBeLessThan(renamed.variants.find((v) => v.format === 'brotli')!.size * 0.05)
    expect(
      (await decodeWithDictionary(delta.encoding, await readFile(join(site.path, delta.path)), held)).equals(
        await readFile(join(site.path, renamed.path)),
      ),
    ).toBe(true)

    // Most of the code is new: a fresh dictionary, itself a delta against the one visitors hold.
    const third = await build(
      {
        'index.html': page(['assets/index-Mn12Op34.js', 'assets/pages-Uv56Wx78.js']),
        'assets/index-Mn12Op34.js': moduleCode('shell', 11),
        'assets/pages-Uv56Wx78.js': `${routes}${moduleCode('reports', 13)}`,
      },
      true,
    )
    expect(third.prepared!.kept).toBe(false)
    expect(third.prepared!.path).not.toBe(first.prepared!.path)
    const fresh = third.manifest.files.find((f) => f.path === third.prepared!.path)!
    const refresh = fresh.deltas!.find((d) => d.dictionary === dictionaryId(sha256Of(held)))!
    expect(
      (await decodeWithDictionary(refresh.encoding, await readFile(join(site.path, refresh.path)), held)).equals(
        await readFile(join(site.path, fresh.path)),
      ),
    ).toBe(true)
    expect(await readFile(join(site.path, 'index.html'), 'utf8')).toContain(`href="${third.prepared!.path}"`)
  })
})
