// The shared page dictionary in Chromium, on every server: a multi-page site is built (link to
// preencode-dictionary.txt added to each page, page deltas written against it); the first page
// makes Chromium fetch the dictionary; navigating to a second page brings it dictionary-compressed,
// smaller than its brotli, and it renders. A visitor without the dictionary gets brotli.
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  compressDirectory,
  PAGE_DICTIONARY_PATH,
  preparePageDictionary,
  readManifest,
  resolveDeltaOptions,
  writeDeltas,
  type Manifest,
} from '@preencode/core'
import { freePort, tempDir } from '@preencode/test-utils'
import { INCLUDE_KINDS } from '../harness/server-files.ts'
import { startServerOnPort, type ServerKind } from '../harness/servers.ts'
import { originOf } from '../harness/tls.ts'
import { expect, test } from '../harness/transport.ts'
import { expectSecureH2 } from './app.ts'

const WORDS =
  'the of and to in is for that with as on by this are from be or an it at which you can not have more use your will all its one configuration server build plugin compress dictionary browser response request header file page'.split(
    ' ',
  )

/** A documentation site: one template (head, navigation, footer), different text per page. */
function pageOf(n: number): string {
  let seed = n + 1
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x7fffffff
  }
  const nav = Array.from(
    { length: 40 },
    (_, i) =>
      `<li><a href="/docs/page-${i}/">Page ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}</a></li>`,
  ).join('\n')
  const text = Array.from(
    { length: 12 },
    () => `<p>${Array.from({ length: 60 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')}.</p>`,
  ).join('\n')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${n}</title><style>body{font-family:system-ui;margin:0 auto;max-width:50em}.site-nav li{display:inline}</style></head><body><header class="site-header"><a href="/">Docs home</a><nav class="site-nav"><ul>${nav}</ul></nav></header><main><h1 id="title">Page ${n}</h1>${text}</main><footer class="site-footer"><p>Built with preencode. Every page shares this footer and the navigation above.</p></footer></body></html>\n`
}

async function buildSite(root: string): Promise<Manifest> {
  for (let n = 0; n < 24; n++) {
    const path = join(root, n === 0 ? 'index.html' : `docs/page-${n}/index.html`)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, pageOf(n))
  }
  const options = resolveDeltaOptions({ pages: true, remember: false })
  await preparePageDictionary(root, options.pageDictionaryBytes)
  const { manifest } = await compressDirectory(root, { cache: false })
  await writeDeltas(root, manifest, options, { cacheDir: false })
  return readManifest(root)
}

// The include kinds (a user's own TLS server block) run over HTTPS only.
const KINDS: ServerKind[] = [
  'node',
  'nginx-stock',
  'nginx-modules',
  'apache-htaccess',
  'apache-vhost',
  'nginx-include',
  'apache-include',
]

test.describe('shared page dictionary in Chromium', () => {
  let work: Awaited<ReturnType<typeof tempDir>>
  let site: string
  let manifest: Manifest
  test.beforeAll(async () => {
    work = await tempDir('e2e-dict-pages')
    await chmod(work.path, 0o755)
    site = join(work.path, 'site')
    manifest = await buildSite(site)
  })
  test.afterAll(async () => {
    await work.remove()
  })

  for (const kind of KINDS) {
    test(kind, async ({ browser, tls }) => {
      test.skip(tls && kind === 'node', 'the middleware is served over HTTP only')
      test.skip(!tls && INCLUDE_KINDS.includes(kind), `${kind} is served over HTTPS only`)
      const port = await freePort()
      const origin = originOf(port, tls)
      const running = await startServerOnPort(kind, site, port, join(work.path, kind), manifest, { tls })
      try {
        const page7 = manifest.files.find((f) => f.path === 'docs/page-7/index.html')!
        expect(page7.deltas?.length).toBeGreaterThan(0)
        const brotli = page7.variants.find((v) => v.encoding === 'br')!.size

        const context = await browser.newContext()
        const page = await context.newPage()
        const dictionary = page.waitForResponse((r) => r.url().endsWith(`/${PAGE_DICTIONARY_PATH}`))
        await page.goto(`${origin}/docs/page-3/`)
        const fetched = await dictionary
        await fetched.finished()
        expect(fetched.headers()['use-as-dictionary']).toBe('match="*", match-dest=("document")')

        const navigation = await page.goto(`${origin}/docs/page-7/`)
        const encoding = navigation!.headers()['content-encoding']
        const bytes = (await navigation!.request().sizes()).responseBodySize
        expect(['dcb', 'dcz'], `page 7 came as ${encoding}`).toContain(encoding)
        expect(bytes).toBeLessThan(brotli)
        await expect(page.locator('#title')).toHaveText('Page 7')
        if (tls) await expectSecureH2(page, origin)
        test
          .info()
          .annotations.push({ type: 'bytes', description: `page 7: brotli ${brotli} B, ${encoding} ${bytes} B` })
        await context.close()

        // Without the dictionary: brotli, and the page renders.
        const fresh = await browser.newContext()
        const freshPage = await fresh.newPage()
        const cold = await freshPage.goto(`${origin}/docs/page-7/`)
        expect(cold!.headers()['content-encoding']).toBe('br')
        await expect(freshPage.locator('#title')).toHaveText('Page 7')
        await fresh.close()
      } catch (error) {
        await test.info().attach('server', { body: running.logs() })
        throw error
      } finally {
        await running.stop()
      }
    })
  }
})
