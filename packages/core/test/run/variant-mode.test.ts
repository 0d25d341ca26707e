// Variants and deltas take their original's mode, never an execute bit (issue 35): a private
// original (0600) never gets a world-readable variant, an executable one (0755) never an
// executable variant. No variant is marked u+x any more, even where its sizes disagree with the
// servers' fixed order (a `.gz` smaller than its `.zst`), and a mark an older version set is
// taken off by the next run.
import { chmod, cp, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { compress } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { writeDeltas } from '../../src/deltas/write-deltas.js'
import { resolveDeltaOptions } from '../../src/options/delta-options.js'
import { prng, put, textOf } from '../fixtures.js'

let site: Awaited<ReturnType<typeof tempDir>>
beforeEach(async () => {
  site = await tempDir('variant-mode')
})
afterEach(async () => {
  await site.remove()
})

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o7777

/**
 * ~1.2 KB of words from a 200-word vocabulary: like a small minified module, its gzip variant
 * is a few bytes smaller than its zstd one (asserted below), the case older versions marked u+x.
 */
function wordSoup(bytes: number, seed: number): Buffer {
  const random = prng(seed)
  const letter = (): string => String.fromCharCode(97 + Math.floor(random() * 26))
  const vocabulary = Array.from({ length: 200 }, () =>
    Array.from({ length: 3 + Math.floor(random() * 6) }, letter).join(''),
  )
  let text = ''
  while (text.length < bytes)
    text += `${vocabulary[Math.floor(random() * vocabulary.length)]}${'.,:;( )="'[Math.floor(random() * 10)]}`
  return Buffer.from(text)
}

const ORIGINALS: Record<string, { mode: number; bytes: Buffer }> = {
  'private.js': { mode: 0o600, bytes: textOf(20_000, 1) },
  'script.js': { mode: 0o755, bytes: textOf(20_000, 2) },
  'group.css': { mode: 0o640, bytes: textOf(20_000, 3) },
  'small.js': { mode: 0o755, bytes: wordSoup(1200, 1) },
}

async function writeOriginals(): Promise<void> {
  for (const [path, { mode, bytes }] of Object.entries(ORIGINALS)) {
    await put(site.path, path, bytes)
    await chmod(join(site.path, path), mode)
  }
}

it("writes each variant with its original's read and write bits and no execute bit", async () => {
  await writeOriginals()
  const { manifest } = await compress(site.path, { cache: false })
  const small = manifest.files.find((f) => f.path === 'small.js')!
  const size = (format: string): number => small.variants.find((v) => v.format === format)!.size
  expect(size('gzip'), 'the fixture: a .gz smaller than its .zst').toBeLessThan(size('zstd'))
  let checked = 0
  for (const file of manifest.files) {
    for (const variant of file.variants) {
      expect(await modeOf(join(site.path, variant.path)), variant.path).toBe(ORIGINALS[file.path]!.mode & 0o666)
      checked++
    }
  }
  expect(checked).toBe(12)
})

it('takes off a u+x mark an older version set, and corrects a changed mode, though nothing is rewritten', async () => {
  await writeOriginals()
  await compress(site.path, { cache: false })
  await chmod(join(site.path, 'small.js.gz'), 0o744)
  await chmod(join(site.path, 'script.js.zst'), 0o744)
  await chmod(join(site.path, 'private.js.br'), 0o644)
  const again = await compress(site.path, { cache: false })
  expect(again.report.variantsWritten).toBe(0)
  expect(await modeOf(join(site.path, 'small.js.gz'))).toBe(0o644)
  expect(await modeOf(join(site.path, 'script.js.zst'))).toBe(0o644)
  expect(await modeOf(join(site.path, 'private.js.br'))).toBe(0o600)
})

it("writes deltas (.dcb, .dcz) with their original's mode, no execute bit", async () => {
  const v1 = textOf(40_000, 12)
  const v2 = Buffer.concat([v1.subarray(0, 20_000), Buffer.from('\nconst edit = 2;\n'), v1.subarray(20_000)])
  await put(site.path, 'assets/index-Ab12Cd34.js', v1)
  await compress(site.path, { cache: false })
  const deployed = `${site.path}-deployed`
  await cp(site.path, deployed, { recursive: true })
  try {
    await rm(join(site.path, 'assets'), { recursive: true })
    await put(site.path, 'assets/index-Ef56Gh78.js', v2)
    await chmod(join(site.path, 'assets/index-Ef56Gh78.js'), 0o750)
    const { manifest } = await compress(site.path, { cache: false })
    const result = await writeDeltas(site.path, manifest, resolveDeltaOptions({ previous: deployed }), {
      cacheDir: false,
    })
    const deltas = result.manifest.files.find((f) => f.path === 'assets/index-Ef56Gh78.js')!.deltas ?? []
    expect(deltas.map((d) => d.encoding).sort()).toEqual(['dcb', 'dcz'])
    for (const delta of deltas) expect(await modeOf(join(site.path, delta.path)), delta.path).toBe(0o640)
  } finally {
    await rm(deployed, { recursive: true, force: true })
  }
})
