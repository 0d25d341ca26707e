// The real playground (playground/vite.config.ts: its pages, chunks, worker, public/ files and
// the plugin that rewrites late.json in its own closeBundle), built into a temp outDir with a
// temp cache, exactly as `pnpm --filter playground build` does apart from those two paths.
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { type CompressReport, MANIFEST_FILENAME, readManifest } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import preencode from '@preencode/vite'
import { build, type Plugin, type PluginOption, type UserConfig } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureLogger, expectVariantsDecode, listFiles, VARIANT_EXTENSIONS, variantsOf } from './helpers.js'

const PLAYGROUND = resolve(import.meta.dirname, '../../../playground')

let work: Awaited<ReturnType<typeof tempDir>>
let outDir: string
let files: string[]
let reports: CompressReport[]

async function buildPlayground(): Promise<CompressReport[]> {
  const { default: playgroundConfig } = (await import(join(PLAYGROUND, 'vite.config.ts'))) as { default: UserConfig }
  const plugins = (playgroundConfig.plugins ?? []).filter(
    (p: PluginOption) => (p as Plugin | null)?.name !== 'preencode:vite',
  )
  const capture = captureLogger()
  await build({
    ...playgroundConfig,
    root: PLAYGROUND,
    configFile: false,
    customLogger: capture.logger,
    build: { ...playgroundConfig.build, outDir, emptyOutDir: true },
    plugins: [preencode({ report: 'json', cache: join(work.path, 'cache') }), ...plugins],
  })
  return capture.reports()
}

beforeAll(async () => {
  work = await tempDir('vite-playground')
  outDir = join(work.path, 'dist')
  reports = await buildPlayground()
  files = await listFiles(outDir)
})

afterAll(async () => {
  await work.remove()
})

describe('playground build', () => {
  it('gives every text asset all three variants, each decoding to the original', async () => {
    const mainChunk = files.find((f) => /^assets\/index-.*\.js$/.test(f))
    const css = files.find((f) => /^assets\/.*\.css$/.test(f))
    expect(mainChunk).toBeDefined()
    expect(css).toBeDefined()
    const expected = [
      'index.html',
      'about/index.html',
      'sub/index.html', // HTML, directory indexes included
      mainChunk!,
      css!, // JS, CSS
      'logo.svg',
      'data/site.json',
      'fonts/preencode-pixel.ttf', // public/: SVG, JSON, TTF
      'late.json', // written by another plugin's closeBundle
    ]
    for (const path of expected) {
      expect(variantsOf(files, path), path).toEqual([...VARIANT_EXTENSIONS])
      await expectVariantsDecode(outDir, path, VARIANT_EXTENSIONS)
    }
    // The main chunk carries the ~340 kB catalogue: compression has to matter there.
    const size = (await readFile(join(outDir, mainChunk!))).length
    const br = (await readFile(join(outDir, `${mainChunk!}.br`))).length
    expect(size).toBeGreaterThan(200_000)
    expect(br).toBeLessThan(size / 4)
  })

  it('builds every chunk (entry, lazy import, worker) with its marker', async () => {
    const chunks = files.filter((f) => /^assets\/.*\.js$/.test(f))
    const texts = await Promise.all(chunks.map((f) => readFile(join(outDir, f), 'utf8')))
    for (const marker of ['main', 'lazy', 'worker', 'about']) {
      // The minifier may quote the string with ', " or a backtick.
      const literal = new RegExp(`[\`'"]${marker}[\`'"]`)
      expect(
        texts.some((t) => literal.test(t)),
        marker,
      ).toBe(true)
    }
    expect(chunks.some((f) => f.includes('worker'))).toBe(true)
    expect(chunks.some((f) => f.includes('lazy'))).toBe(true)
  })

  it('leaves the PNG and the real download.tar.gz alone', () => {
    expect(files).toContain('images/noise.png')
    expect(files).toContain('download.tar.gz')
    expect(variantsOf(files, 'images/noise.png')).toEqual([])
    expect(variantsOf(files, 'download.tar.gz')).toEqual([])
  })

  it('compresses late.json with the bytes written in closeBundle, not the writeBundle placeholder', async () => {
    const late = JSON.parse(await readFile(join(outDir, 'late.json'), 'utf8')) as { stage: string; final?: boolean }
    expect(late).toMatchObject({ stage: 'closeBundle', final: true })
    await expectVariantsDecode(outDir, 'late.json', VARIANT_EXTENSIONS)
    const manifest = await readManifest(outDir)
    const entry = manifest.files.find((f) => f.path === 'late.json')
    expect(entry?.variants.map((v) => v.format).sort()).toEqual(['brotli', 'gzip', 'zstd'])
  })

  it('writes the manifest and reports one client output', () => {
    expect(files).toContain(MANIFEST_FILENAME)
    expect(reports).toHaveLength(1)
    expect(reports[0]?.dir).toBe(outDir)
  })

  it('a second build of the unchanged playground is all cache hits', async () => {
    const [cold] = reports
    const [warm] = await buildPlayground()
    expect(cold!.cache.misses).toBeGreaterThan(0)
    expect(warm!.cache.misses).toBe(0)
    expect(warm!.cache.hits).toBe(cold!.cache.hits + cold!.cache.misses)
  })
})
