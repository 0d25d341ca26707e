// The integration's hooks called as Astro calls them (the real `astro build` is the e2e test
// e2e/frameworks/): the final folder is compressed, the order warning, bad input.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { zstdDecompressSync } from 'node:zlib'
import preencode from '@preencode/astro'
import { decodeWithDictionary, readManifest } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import type { AstroIntegration } from 'astro'
import { afterEach, describe, expect, it } from 'vitest'

const PAGE = `<!doctype html><title>page</title>${'<p>Rendered by Astro, then compressed once.</p>'.repeat(40)}`

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const clean of cleanups.splice(0)) await clean()
})

function recordingLogger(): { logger: never; lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = []
  const at = (level: string) => (message: string) => {
    lines.push({ level, message })
  }
  return { logger: { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } as never, lines }
}

type Hook = (params: unknown) => Promise<void> | void
const hook = (integration: AstroIntegration, name: string): Hook => integration.hooks[name] as Hook

describe('@preencode/astro', () => {
  it('compresses the folder astro:build:done names and warns about integrations listed after it', async () => {
    const dir = await tempDir('astro-integration')
    cleanups.push(dir.remove)
    const out = join(dir.path, 'dist')
    await mkdir(join(out, 'blog'), { recursive: true })
    await writeFile(join(out, 'blog', 'index.html'), PAGE)
    const integration = preencode({ cache: false, serverConfigs: [{ server: 'apache', path: 'dist/.htaccess' }] })
    const sitemap: AstroIntegration = { name: '@astrojs/sitemap', hooks: { 'astro:build:done': () => {} } }
    const { logger, lines } = recordingLogger()
    // Astro hands integrations over as copies of the objects in the config.
    await hook(
      integration,
      'astro:config:setup',
    )({
      config: { root: pathToFileURL(`${dir.path}/`), integrations: [{ ...integration }, sitemap] },
      command: 'build',
      logger,
    })
    await hook(integration, 'astro:config:done')({ buildOutput: 'static', logger })
    await hook(integration, 'astro:build:done')({ dir: pathToFileURL(`${out}/`), pages: [], logger })

    expect(zstdDecompressSync(await readFile(join(out, 'blog', 'index.html.zst'))).toString()).toBe(PAGE)
    expect(await readFile(join(out, '.htaccess'), 'utf8')).toMatch(/RewriteEngine/)
    const warnings = lines.filter((line) => line.level === 'warn').map((line) => line.message)
    expect(warnings).toEqual([
      expect.stringMatching(/^@astrojs\/sitemap runs after @preencode\/astro .* List preencode\(\) last/),
    ])
    expect(lines.some((line) => /preencode: 1 of \d+ files -> 3 variants/.test(line.message))).toBe(true)
  })

  it('writes delta updates by default, as the Vite plugin does: the second build gets a dcb/dcz against the first', async () => {
    const dir = await tempDir('astro-deltas')
    cleanups.push(dir.remove)
    const out = join(dir.path, 'dist')
    const V1 = Buffer.from(
      Array.from({ length: 2000 }, (_, i) => `export const f${i} = (x) => x * ${i % 13}\n`).join(''),
    )
    const V2 = Buffer.concat([V1.subarray(0, 20_000), Buffer.from('export const edited = 2\n'), V1.subarray(20_000)])
    const integration = preencode({ cache: join(dir.path, 'cache'), report: false })
    const { logger } = recordingLogger()
    const config = { root: pathToFileURL(`${dir.path}/`), integrations: [integration] }
    await hook(integration, 'astro:config:setup')({ config, command: 'build', logger })
    await hook(integration, 'astro:config:done')({ buildOutput: 'static', logger })
    for (const [name, bytes] of [
      ['app-Ab12Cd34.js', V1],
      ['app-Ef56Gh78.js', V2],
    ] as const) {
      await rm(out, { recursive: true, force: true })
      await mkdir(join(out, 'assets'), { recursive: true })
      await writeFile(join(out, 'assets', name), bytes)
      await hook(integration, 'astro:build:done')({ dir: pathToFileURL(`${out}/`), pages: [], logger })
    }
    const app = (await readManifest(out)).files.find((f) => f.path === 'assets/app-Ef56Gh78.js')!
    expect(app.useAsDictionary).toBe('app-*.js')
    expect(app.deltas?.map((d) => d.encoding).sort()).toEqual(['dcb', 'dcz'])
    for (const delta of app.deltas!) {
      const body = await readFile(join(out, delta.path))
      expect((await decodeWithDictionary(delta.encoding, body, V1)).equals(V2)).toBe(true)
    }
  })

  it('fails with one line naming the option', async () => {
    const { logger } = recordingLogger()
    const setup = (options: object) =>
      hook(
        preencode(options as never),
        'astro:config:setup',
      )({ config: { root: pathToFileURL('/tmp/'), integrations: [] }, command: 'build', logger })
    expect(() => setup({ report: 'table' })).toThrow(/\[preencode\] \[astro\] `report` is "table"/)
    expect(() => setup({ levels: { brotli: 12 } })).toThrow(/brotli/)
    expect(() => setup({ serverConfigs: [{ server: 'lighttpd', path: 'x' }] })).toThrow(
      /\[astro\] `serverConfigs\[0\]\.server` is "lighttpd"/,
    )
  })
})
