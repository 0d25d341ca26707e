// A small Vite app built with the preencode plugin (deltas on by default), twice: version 1,
// then version 2 after a one-line source edit. Chunks: the entry (with `lib` in it) and a lazy
// chunk that imports from it; the edit in `lib` changes both hashes (the cascade).
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, type Page, type Response } from '@playwright/test'
import { type Manifest, readManifest } from '@preencode/core'
import { preencode } from '@preencode/vite'
import { build } from 'vite'
import { ONLY } from '../harness/applies.ts'
import { INCLUDE_KINDS } from '../harness/server-files.ts'
import { pageTransport } from '../harness/transport.ts'

/** Deterministic data heavy enough to make `lib` a real chunk (about 150 KB). */
function rows(): string {
  const words = 'alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega'.split(' ')
  return JSON.stringify(
    Array.from({ length: 2500 }, (_, i) => ({
      id: i,
      label: `${words[i % words.length]} ${words[(i * 7) % words.length]} ${i * 31}`,
      tags: [words[(i * 3) % 11], words[(i * 5) % 11]],
    })),
  )
}

export async function writeAppSources(root: string, version: string): Promise<void> {
  await mkdir(join(root, 'src'), { recursive: true })
  await writeFile(
    join(root, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>deltas</title><script type="module" src="/src/main.js"></script></head><body><p id="out">loading</p></body></html>\n`,
  )
  await writeFile(
    join(root, 'src/lib.js'),
    `export const VERSION = ${JSON.stringify(version)}\nexport const ROWS = ${rows()}\nexport function label(i) { return ROWS[i % ROWS.length].label + ' ' + VERSION }\n`,
  )
  await writeFile(
    join(root, 'src/main.js'),
    `import { VERSION, ROWS, label } from './lib.js'\ndocument.body.dataset.version = VERSION\ndocument.getElementById('out').textContent = label(3) + ' of ' + ROWS.length\nimport('./lazy.js').then((m) => m.show())\n`,
  )
  await writeFile(
    join(root, 'src/lazy.js'),
    `import { VERSION, label } from './lib.js'\nconst NOTES = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `note ${i}: the lazy chunk carries its own data`))}\nexport function show() { document.body.dataset.lazy = VERSION + ':' + label(7) + ':' + NOTES.length }\n`,
  )
}

/** Builds `root` into `outDir` with the plugin; deltas come from the cache's build history. */
export async function buildApp(root: string, outDir: string, cacheDir: string): Promise<Manifest> {
  await build({
    root,
    logLevel: 'silent',
    configFile: false,
    build: { outDir, emptyOutDir: true },
    plugins: [preencode({ cache: cacheDir, report: false })],
  })
  return readManifest(outDir)
}

/** Every script response of a navigation, with the bytes it took on the wire. */
export async function loadScripts(
  page: Page,
  navigate: () => Promise<unknown>,
): Promise<{ url: string; encoding: string | undefined; bodyBytes: number }[]> {
  const responses: Response[] = []
  const listener = (response: Response): void => {
    if (response.url().endsWith('.js')) responses.push(response)
  }
  page.on('response', listener)
  await navigate()
  await expect(page.locator('body')).toHaveAttribute('data-lazy', /.+/)
  page.off('response', listener)
  return Promise.all(
    responses.map(async (response) => ({
      url: new URL(response.url()).pathname,
      encoding: (await response.allHeaders())['content-encoding'],
      bodyBytes: (await response.request().sizes()).responseBodySize,
    })),
  )
}

/**
 * Over HTTPS: the page is a secure context at `origin` (a name that is not localhost, so
 * Chromium's real path), and every response of the navigation came over HTTP/2.
 */
export async function expectSecureH2(page: Page, origin: string): Promise<void> {
  const seen = await pageTransport(page)
  expect(seen.secure).toBe(true)
  expect(seen.origin).toBe(origin)
  expect(seen.protocols.length).toBeGreaterThan(0)
  for (const { path, protocol } of seen.protocols) expect(`${path} ${protocol}`).toMatch(/ h2$/)
}

/** Kinds the harness serves over HTTP only (the middleware, the Fetch handler, `vite preview`, the Worker in Miniflare). */
const HTTP_ONLY_KINDS: readonly string[] = ['node', 'fetch-node', 'vite-preview', 'cloudflare']

/**
 * The transport tag of `kind`'s test (the include forms are served over HTTPS only), so that it is
 * declared only in the project of that transport (`dictionary` or `dictionary-https`).
 */
export function transportTags(kind: string): string[] {
  if (HTTP_ONLY_KINDS.includes(kind)) return [ONLY.http]
  if ((INCLUDE_KINDS as readonly string[]).includes(kind)) return [ONLY.https]
  return []
}
