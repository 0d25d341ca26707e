// The integration's hooks called as Astro calls them (the real `astro build` is the e2e test
// e2e/frameworks/): the final folder is compressed, the order warning, bad input.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { zstdDecompressSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import type { AstroIntegration } from 'astro'
import { tempDir } from '@preencode/test-utils'
import preencode from '@preencode/astro'

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
