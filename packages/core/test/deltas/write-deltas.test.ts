// Delta updates across real builds of a small site: versions remembered in the cache or read
// from a deployed folder, deltas that decode with their dictionary to the new file, stale
// deltas removed, the manifest and the report telling the truth.
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { decodeWithDictionary, encodeWithDictionary } from '../../src/codecs/dictionary.js'
import { DICTIONARY_CODECS } from '../../src/codecs/table.js'
import { writeDeltas } from '../../src/deltas/write-deltas.js'
import { type Manifest, readManifest } from '../../src/manifest/manifest.js'
import { resolveDeltaOptions } from '../../src/options/delta-options.js'
import { formatDeltaReport } from '../../src/report/delta-report.js'
import { compress as compressDirectory } from '../../src/run/compress.js'
import { scanDirectory } from '../../src/run/scan.js'
import { textOf } from '../fixtures.js'

type Temp = Awaited<ReturnType<typeof tempDir>>

const VENDOR = textOf(60_000, 11)
const APP_V1 = textOf(40_000, 12)
const edit = (base: Buffer, n: number): Buffer =>
  Buffer.concat([base.subarray(0, 20_000), Buffer.from(`\nconst edit${n} = ${n};\n`), base.subarray(20_000)])

async function writeSite(root: string, app: { name: string; bytes: Buffer }): Promise<void> {
  await rm(root, { recursive: true, force: true })
  const files: Record<string, Buffer> = {
    'index.html': Buffer.from(
      `<!doctype html><script type="module" src="/assets/${app.name}"></script>${'<p>page</p>'.repeat(200)}`,
    ),
    'assets/vendor-Dk3mQ9xZ.js': VENDOR,
    [`assets/${app.name}`]: app.bytes,
  }
  for (const [path, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), bytes)
  }
}

async function build(
  root: string,
  cacheDir: string,
  app: { name: string; bytes: Buffer },
  deltas: Parameters<typeof resolveDeltaOptions>[0] = {},
): Promise<{ manifest: Manifest; text: string; report: Awaited<ReturnType<typeof writeDeltas>>['report'] }> {
  await writeSite(root, app)
  const { manifest } = await compressDirectory(root, { cache: cacheDir })
  const result = await writeDeltas(root, manifest, resolveDeltaOptions(deltas), { cacheDir })
  return { manifest: result.manifest, report: result.report, text: formatDeltaReport(result.report) }
}

describe('writeDeltas', () => {
  let site: Temp
  let cache: Temp
  beforeEach(async () => {
    site = await tempDir('deltas-site')
    cache = await tempDir('deltas-cache')
  })
  afterEach(async () => {
    await site.remove()
    await cache.remove()
  })

  const v1 = { name: 'index-Ab12Cd34.js', bytes: APP_V1 }
  const v2 = { name: 'index-Ef56Gh78.js', bytes: edit(APP_V1, 2) }
  const v3 = { name: 'index-Ij90Kl12.js', bytes: edit(edit(APP_V1, 2), 3) }

  it('announces hashed assets, and after an update writes dcb and dcz that decode to the new file', async () => {
    const first = await build(site.path, cache.path, v1)
    expect(first.report.files).toEqual([])
    expect(first.text).toMatch(/no previous versions known yet/)
    const announced = Object.fromEntries(first.manifest.files.map((f) => [f.path, f.useAsDictionary]))
    expect(announced).toEqual({
      'assets/index-Ab12Cd34.js': 'index-*.js',
      'assets/vendor-Dk3mQ9xZ.js': 'vendor-*.js',
      'index.html': undefined,
    })

    const second = await build(site.path, cache.path, v2)
    const app = second.manifest.files.find((f) => f.path === 'assets/index-Ef56Gh78.js')!
    expect(app.deltas?.map((d) => d.encoding).sort()).toEqual(['dcb', 'dcz'])
    expect(second.manifest.files.find((f) => f.path.startsWith('assets/vendor'))!.deltas).toBeUndefined()
    for (const delta of app.deltas!) {
      expect(delta.dictionaryPath).toBe('assets/index-Ab12Cd34.js')
      expect(delta.dictionary).toBe((await import('node:crypto')).createHash('sha256').update(APP_V1).digest('base64'))
      const body = await readFile(join(site.path, delta.path))
      expect(body.byteLength).toBe(delta.size)
      expect((await decodeWithDictionary(delta.encoding, body, APP_V1)).equals(v2.bytes)).toBe(true)
    }
    const brotli = app.variants.find((v) => v.encoding === 'br')!.size
    expect(second.report.totals.deltaBytes).toBeLessThan(brotli * 0.05)
    expect(second.report.files).toHaveLength(1)
    expect(second.text).toMatch(/1 changed files as deltas/)
    // The manifest on disk is the one returned, and the scan never takes a delta for content.
    expect(await readManifest(site.path)).toEqual(second.manifest)
    const scan = await scanDirectory(site.path, { previous: second.manifest })
    expect(scan.originals).toEqual(['assets/index-Ef56Gh78.js', 'assets/vendor-Dk3mQ9xZ.js', 'index.html'])
    expect(scan.variants).toEqual(expect.arrayContaining(app.deltas!.map((d) => d.path)))
  })

  it('keeps deltas against the last `versions` versions, removes the rest and their folders', async () => {
    await build(site.path, cache.path, v1)
    await build(site.path, cache.path, v2)
    const third = await build(site.path, cache.path, v3)
    const app = third.manifest.files.find((f) => f.path === 'assets/index-Ij90Kl12.js')!
    expect(new Set(app.deltas!.map((d) => d.dictionaryPath))).toEqual(
      new Set(['assets/index-Ab12Cd34.js', 'assets/index-Ef56Gh78.js']),
    )
    // Both codings against every held version: a client that takes only dcz (or only dcb) gets a
    // delta whichever version it holds.
    const codings = (path: string) =>
      app
        .deltas!.filter((d) => d.dictionaryPath === path)
        .map((d) => d.encoding)
        .sort()
    expect(codings('assets/index-Ef56Gh78.js')).toEqual(['dcb', 'dcz'])
    expect(codings('assets/index-Ab12Cd34.js')).toEqual(['dcb', 'dcz'])
    for (const delta of app.deltas!) {
      const dictionary = delta.dictionaryPath.endsWith('Ab12Cd34.js') ? v1.bytes : v2.bytes
      expect(
        (await decodeWithDictionary(delta.encoding, await readFile(join(site.path, delta.path)), dictionary)).equals(
          v3.bytes,
        ),
      ).toBe(true)
    }
    // Same content rebuilt with versions: 1 -> only the newest dictionary's deltas stay on disk.
    const again = await build(site.path, cache.path, v3, { versions: 1 })
    const kept = again.manifest.files.find((f) => f.path === 'assets/index-Ij90Kl12.js')!.deltas!
    expect(new Set(kept.map((d) => d.dictionaryPath))).toEqual(new Set(['assets/index-Ef56Gh78.js']))
    expect(again.report.cacheMisses).toBe(0)
    const onDisk = (await readdir(join(site.path, 'assets'), { recursive: true })).filter(
      (p) => p.endsWith('.dcb') || p.endsWith('.dcz'),
    )
    expect(onDisk.map((p) => `assets/${p}`).sort()).toEqual(kept.map((d) => d.path).sort())
  })

  it('reads previous versions from a deployed folder (its manifest), with no cache at all', async () => {
    await writeSite(site.path, v1)
    await compressDirectory(site.path, { cache: false })
    const deployed = join(cache.path, 'www')
    await cp(site.path, deployed, { recursive: true })
    await writeSite(site.path, v2)
    const { manifest } = await compressDirectory(site.path, { cache: false })
    const { report, manifest: withDeltas } = await writeDeltas(
      site.path,
      manifest,
      resolveDeltaOptions({ previous: deployed }),
      { cacheDir: false },
    )
    expect(report.source).toBe(`folder ${deployed} (manifest)`)
    expect(withDeltas.files.find((f) => f.path === 'assets/index-Ef56Gh78.js')!.deltas).toHaveLength(2)
  })

  it("writes dcb and dcz at the run's brotli and zstd levels (the codec table's levelOf)", async () => {
    await writeSite(site.path, v1)
    await compressDirectory(site.path, { cache: false })
    const deployed = join(cache.path, 'www')
    await cp(site.path, deployed, { recursive: true })
    await writeSite(site.path, v2)
    const { manifest } = await compressDirectory(site.path, { cache: false })
    const levels = { brotli: 1, zstd: 2 }
    const { manifest: withDeltas } = await writeDeltas(
      site.path,
      manifest,
      resolveDeltaOptions({ previous: deployed }),
      {
        cacheDir: false,
        levels,
      },
    )
    const app = withDeltas.files.find((f) => f.path === 'assets/index-Ef56Gh78.js')!
    const dictionary = await readFile(join(deployed, 'assets/index-Ab12Cd34.js'))
    for (const delta of app.deltas!) {
      const level = levels[DICTIONARY_CODECS[delta.encoding].levelOf]
      const expected = await encodeWithDictionary(delta.encoding, v2.bytes, dictionary, {
        level,
        path: app.path,
      })
      expect((await readFile(join(site.path, delta.path))).equals(expected), delta.encoding).toBe(true)
    }
  })

  it('uses a deploy state to know which deploy each version belongs to, and never reads outside the folder', async () => {
    const deployed = join(cache.path, 'www')
    await writeSite(deployed, v1)
    await writeFile(join(cache.path, 'index-Zz99Yy88.js'), 'outside')
    await writeFile(
      join(deployed, '.preencode-deploy-state.json'),
      JSON.stringify({
        version: 1,
        objects: {},
        deploys: [
          { id: 'b', time: 2, keys: ['assets/index-Ab12Cd34.js', '../index-Zz99Yy88.js', '/etc/passwd-Ab12Cd34.js'] },
        ],
      }),
    )
    await writeSite(site.path, v2)
    const { manifest } = await compressDirectory(site.path, { cache: false })
    const { manifest: withDeltas, report } = await writeDeltas(
      site.path,
      manifest,
      resolveDeltaOptions({ previous: deployed }),
      { cacheDir: false },
    )
    expect(report.source).toMatch(/deploy state/)
    expect(new Set(withDeltas.files.flatMap((f) => f.deltas ?? []).map((d) => d.dictionaryPath))).toEqual(
      new Set(['assets/index-Ab12Cd34.js']),
    )
  })

  it('validates its options with messages naming them', () => {
    expect(() => resolveDeltaOptions({ versions: 0 })).toThrow(/`deltas.versions` is 0/)
    expect(() => resolveDeltaOptions({ encodings: ['br' as never] })).toThrow(/`deltas.encodings`/)
    expect(() => resolveDeltaOptions({ nope: 1 } as never)).toThrow(/Unknown option `deltas.nope`/)
  })
})
