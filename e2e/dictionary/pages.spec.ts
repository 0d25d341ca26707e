// The shared page dictionary in Chromium, on every server: a multi-page site is built (link to
// preencode-dictionary-<hash>.txt added to each page, page deltas written against it); the first
// page makes Chromium fetch the dictionary, which is fresh for a year (a stored dictionary is used
// only while fresh: RFC 9842 §2.2.2), so usable by a visitor back after an hour; navigating to a
// second page brings it dictionary-compressed, smaller than its brotli, and it renders. A visitor
// without the dictionary gets brotli. Every response announced with Use-As-Dictionary stays
// usable at least as long as deltas against it are kept (DELTA_RETENTION_SECONDS).
import { createHash } from 'node:crypto'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  compress as compressDirectory,
  type Manifest,
  readManifest,
  resolveDeltaOptions,
  writeDeltas,
} from '@preencode/core'
import { freePort, tempDir } from '@preencode/test-utils'
import { preparePageDictionary } from '../../packages/core/src/deltas/page-dictionary.js'
import { DELTA_RETENTION_SECONDS, dictionaryLifetime } from '../../packages/core/src/http/cache-policy.js'
import { type ServerKind, startServerOnPort } from '../harness/servers.ts'
import { originOf } from '../harness/tls.ts'
import { expect, test } from '../harness/transport.ts'
import { expectSecureH2, transportTags } from './app.ts'

const WORDS =
  'the of and to in is for that with as on by this are from be or an it at which you can not have more use your will all its one configuration server build plugin compress dictionary browser response request header file page'.split(
    ' ',
  )

/** A documentation site: one template (head, navigation, footer), different text per page. */
function pageOf(n: number, edition = ''): string {
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
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${n}</title><style>body{font-family:system-ui;margin:0 auto;max-width:50em}.site-nav li{display:inline}</style></head><body><header class="site-header"><a href="/">Docs home</a><nav class="site-nav"><ul>${nav}</ul></nav></header><main><h1 id="title">Page ${n}${edition}</h1>${text}</main><footer class="site-footer"><p>Built with preencode. Every page shares this footer and the navigation above.</p></footer></body></html>\n`
}

/** Builds the site; `previous` is a folder holding the deployed site of the build before. */
async function buildSite(
  root: string,
  edition = '',
  previous?: string,
): Promise<{ manifest: Manifest; dictionary: string }> {
  for (let n = 0; n < 24; n++) {
    const path = join(root, n === 0 ? 'index.html' : `docs/page-${n}/index.html`)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, pageOf(n, edition))
  }
  const options = resolveDeltaOptions({ pages: true, remember: false, ...(previous ? { previous } : {}) })
  const prepared = await preparePageDictionary(root, options.pageDictionaryBytes)
  const { manifest } = await compressDirectory(root, { cache: false })
  await writeDeltas(root, manifest, options, { cacheDir: false })
  return { manifest: await readManifest(root), dictionary: prepared!.path }
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
  let dictionaryName: string
  test.beforeAll(async () => {
    work = await tempDir('e2e-dict-pages')
    await chmod(work.path, 0o755)
    site = join(work.path, 'site')
    ;({ manifest, dictionary: dictionaryName } = await buildSite(site))
    expect(dictionaryName).toMatch(/^preencode-dictionary-[0-9a-f]{16}\.txt$/)
  })
  test.afterAll(async () => {
    await work.remove()
  })

  for (const kind of KINDS) {
    test(kind, { tag: transportTags(kind) }, async ({ browser, tls }) => {
      const port = await freePort()
      const origin = originOf(port, tls)
      const running = await startServerOnPort(kind, site, port, join(work.path, kind), manifest, { tls })
      try {
        const page7 = manifest.files.find((f) => f.path === 'docs/page-7/index.html')!
        expect(page7.deltas?.length).toBeGreaterThan(0)
        const brotli = page7.variants.find((v) => v.encoding === 'br')!.size

        const context = await browser.newContext()
        const page = await context.newPage()
        const announced: { url: string; cacheControl: string }[] = []
        page.on('response', (r) => {
          if (r.headers()['use-as-dictionary'] !== undefined)
            announced.push({ url: r.url(), cacheControl: r.headers()['cache-control'] ?? '' })
        })
        const dictionary = page.waitForResponse((r) => r.url().endsWith(`/${dictionaryName}`))
        const first = await page.goto(`${origin}/docs/page-3/`)
        // The page's link names this build's dictionary, relative to the page.
        expect(await first!.text()).toContain(`<link rel="compression-dictionary" href="../../${dictionaryName}">`)
        const fetched = await dictionary
        await fetched.finished()
        expect(fetched.headers()['use-as-dictionary']).toBe('match="*", match-dest=("document")')
        // Usable after an hour, and as long as deltas against it are kept: the content-hashed class.
        expect(fetched.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
        expect(dictionaryLifetime(fetched.headers()['cache-control']!)).toBeGreaterThan(3600)

        const navigation = await page.goto(`${origin}/docs/page-7/`)
        const encoding = navigation!.headers()['content-encoding']
        const bytes = (await navigation!.request().sizes()).responseBodySize
        expect(['dcb', 'dcz'], `page 7 came as ${encoding}`).toContain(encoding)
        expect(bytes).toBeLessThan(brotli)
        await expect(page.locator('#title')).toHaveText('Page 7')
        if (tls) await expectSecureH2(page, origin)
        expect(announced.map((a) => a.url)).toContain(`${origin}/${dictionaryName}`)
        for (const { url, cacheControl } of announced)
          expect(dictionaryLifetime(cacheControl), `${url}: ${cacheControl}`).toBeGreaterThanOrEqual(
            DELTA_RETENTION_SECONDS,
          )
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

// A returning visitor after a deploy: the first build's dictionary, fetched on the first visit, is
// still fresh (immutable class) when the second build is live; the second build's pages link a new
// dictionary (new name), and their deltas against the first one reach that visitor.
test.describe('a returning visitor keeps page deltas across a deploy', () => {
  let work: Awaited<ReturnType<typeof tempDir>>
  const sites = { v1: '', v2: '' }
  let v1: { manifest: Manifest; dictionary: string }
  let v2: { manifest: Manifest; dictionary: string }
  test.beforeAll(async () => {
    work = await tempDir('e2e-dict-pages-return')
    await chmod(work.path, 0o755)
    sites.v1 = join(work.path, 'v1')
    sites.v2 = join(work.path, 'v2')
    v1 = await buildSite(sites.v1)
    // The live site (v1) is where the second build finds the dictionary visitors hold.
    v2 = await buildSite(sites.v2, ' (second edition)', sites.v1)
    expect(v2.dictionary).not.toBe(v1.dictionary)
  })
  test.afterAll(async () => {
    await work.remove()
  })

  for (const kind of KINDS) {
    test(kind, { tag: transportTags(kind) }, async ({ browser, tls }) => {
      const port = await freePort()
      const origin = originOf(port, tls)
      const v1Dictionary = await readFile(join(sites.v1, v1.dictionary))
      const page7 = v2.manifest.files.find((f) => f.path === 'docs/page-7/index.html')!
      const hash = `:${createHash('sha256').update(v1Dictionary).digest('base64')}:`
      const against = page7.deltas!.filter((d) => `:${d.dictionary}:` === hash)
      expect(against.length, 'v2 page 7 has deltas against the v1 dictionary').toBeGreaterThan(0)
      const context = await browser.newContext()
      let running = await startServerOnPort(kind, sites.v1, port, join(work.path, `${kind}-v1`), v1.manifest, { tls })
      try {
        const page = await context.newPage()
        const dictionary = page.waitForResponse((r) => r.url().endsWith(`/${v1.dictionary}`))
        await page.goto(`${origin}/docs/page-3/`)
        await (await dictionary).finished()
        await running.stop()
        // The deploy: v2 is live on the same origin.
        running = await startServerOnPort(kind, sites.v2, port, join(work.path, `${kind}-v2`), v2.manifest, { tls })
        const navigation = await page.goto(`${origin}/docs/page-7/`)
        expect((await navigation!.request().allHeaders())['available-dictionary']).toBe(hash)
        const encoding = navigation!.headers()['content-encoding']
        expect(['dcb', 'dcz'], `page 7 of v2 came as ${encoding}`).toContain(encoding)
        const bytes = (await navigation!.request().sizes()).responseBodySize
        expect(bytes).toBeLessThan(page7.variants.find((v) => v.encoding === 'br')!.size)
        await expect(page.locator('#title')).toHaveText('Page 7 (second edition)')
        test.info().annotations.push({
          type: 'bytes',
          description: `v2 page 7 against the v1 dictionary: ${encoding} ${bytes} B`,
        })
      } catch (error) {
        await test.info().attach('server', { body: running.logs() })
        throw error
      } finally {
        await context.close()
        await running.stop()
      }
    })
  }
})
