// The buildEnd hook called as VitePress calls it (the real `vitepress build` is the e2e test
// e2e/frameworks/): the whole outDir is compressed and reported; bad input.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { decodeWithDictionary, readManifest } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { preencode } from '@preencode/vitepress'
import type { SiteConfig } from 'vitepress'
import { afterEach, describe, expect, it } from 'vitest'

const PAGE = `<!doctype html><title>guide</title>${'<p>Rendered by VitePress, then compressed once.</p>'.repeat(40)}`

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const clean of cleanups.splice(0)) await clean()
})

describe('@preencode/vitepress', () => {
  it('compresses outDir and reports through the site logger', async () => {
    const dir = await tempDir('vitepress-build-end')
    cleanups.push(dir.remove)
    const outDir = join(dir.path, '.vitepress', 'dist')
    await mkdir(join(outDir, 'guide'), { recursive: true })
    await writeFile(join(outDir, 'guide', 'deploy.html'), PAGE)
    const info: string[] = []
    const logger = {
      info: (message: string) => {
        info.push(message)
      },
      warn: () => {},
      error: () => {},
    }
    await preencode({ cache: false })({ outDir, logger } as unknown as SiteConfig)
    expect(gunzipSync(await readFile(join(outDir, 'guide', 'deploy.html.gz'))).toString()).toBe(PAGE)
    expect(info.join('\n')).toMatch(/preencode: 1 of 1 files -> 3 variants/)
  })

  it('writes delta updates by default, as the Vite plugin does: the second build gets a dcb/dcz against the first', async () => {
    const dir = await tempDir('vitepress-deltas')
    cleanups.push(dir.remove)
    const outDir = join(dir.path, '.vitepress', 'dist')
    const silent = { info: () => {}, warn: () => {}, error: () => {} }
    const V1 = Buffer.from(
      Array.from({ length: 2000 }, (_, i) => `export const f${i} = (x) => x * ${i % 13}\n`).join(''),
    )
    const V2 = Buffer.concat([V1.subarray(0, 20_000), Buffer.from('export const edited = 2\n'), V1.subarray(20_000)])
    const hook = preencode({ cache: join(dir.path, 'cache'), report: false })
    for (const [name, bytes] of [
      ['app-Ab12Cd34.js', V1],
      ['app-Ef56Gh78.js', V2],
    ] as const) {
      await rm(outDir, { recursive: true, force: true })
      await mkdir(join(outDir, 'assets'), { recursive: true })
      await writeFile(join(outDir, 'assets', name), bytes)
      await hook({ outDir, logger: silent } as unknown as SiteConfig)
    }
    const app = (await readManifest(outDir)).files.find((f) => f.path === 'assets/app-Ef56Gh78.js')!
    expect(app.useAsDictionary).toBe('app-*.js')
    expect(app.deltas?.map((d) => d.encoding).sort()).toEqual(['dcb', 'dcz'])
    for (const delta of app.deltas!) {
      const body = await readFile(join(outDir, delta.path))
      expect((await decodeWithDictionary(delta.encoding, body, V1)).equals(V2)).toBe(true)
    }
  })

  it('fails with one line naming the option, when the config is loaded', () => {
    expect(() => preencode({ formats: ['deflate'] } as never)).toThrow(/Unknown format `deflate` in `formats`/)
    expect(() => preencode({ report: 1 } as never)).toThrow(/\[preencode\] \[vitepress\] `report` is 1/)
  })
})
