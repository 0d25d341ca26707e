// The buildEnd hook called as VitePress calls it (the real `vitepress build` is the e2e test
// e2e/frameworks/): the whole outDir is compressed and reported; bad input.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import type { SiteConfig } from 'vitepress'
import { tempDir } from '@preencode/test-utils'
import { preencode } from '@preencode/vitepress'

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

  it('fails with one line naming the option, when the config is loaded', () => {
    expect(() => preencode({ formats: ['deflate'] } as never)).toThrow(/Unknown format `deflate` in `formats`/)
    expect(() => preencode({ report: 1 } as never)).toThrow(/\[preencode\] \[vitepress\] `report` is 1/)
  })
})
