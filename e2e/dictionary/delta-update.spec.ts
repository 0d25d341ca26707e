// RFC 9842 end to end in Chromium: version 1 of a Vite app is deployed and loaded (its chunks
// carry Use-As-Dictionary), version 2 (a one-line source edit) is deployed in place, and the
// reload fetches the changed chunks as dcb/dcz deltas — a small fraction of their brotli bytes,
// read from the network log — and runs version 2's code. Without a dictionary, or with a stale
// or foreign one, the same chunks come as brotli.
import { createHash } from 'node:crypto'
import { chmod } from 'node:fs/promises'
import { join } from 'node:path'
import type { Manifest } from '@preencode/core'
import { freePort, tempDir } from '@preencode/test-utils'
import { preencode } from '@preencode/vite'
import { preview } from 'vite'
import { hasServingException } from '../../packages/server-config/src/exceptions.js'
import { get } from '../harness/http.ts'
import { type ServerKind, type ServingProcess, startServerOnPort } from '../harness/servers.ts'
import { originOf } from '../harness/tls.ts'
import { expect, test } from '../harness/transport.ts'
import { buildApp, expectSecureH2, loadScripts, transportTags, writeAppSources } from './app.ts'

const CHROMIUM_AE = 'gzip, deflate, br, zstd, dcb, dcz'

/**
 * Starts `kind` on `port` serving `root` with the config generated from its manifest. A deploy
 * restarts it on the same port (same origin: the browser's dictionaries are per origin), which
 * is what a config regenerated on deploy needs; the Node middleware reads the disk itself.
 */
async function start(
  kind: ServerKind | 'vite-preview',
  root: string,
  port: number,
  configDir: string,
  app: string,
  tls: boolean,
): Promise<ServingProcess> {
  if (kind === 'vite-preview') {
    // `vite preview` with the plugin: the same middleware, mounted by configurePreviewServer.
    const server = await preview({
      root: app,
      configFile: false,
      logLevel: 'silent',
      build: { outDir: root },
      preview: { port, host: '127.0.0.1', strictPort: true },
      plugins: [preencode()],
    })
    return { logs: () => '', stop: () => server.close() }
  }
  return startServerOnPort(kind, root, port, configDir, undefined, { tls })
}

const KINDS: (ServerKind | 'vite-preview')[] = [
  'vite-preview',
  'node',
  // The Fetch handler under Node, and `preencode serve` on it (HTTP, and HTTPS + HTTP/2).
  'fetch-node',
  'preencode-serve',
  'nginx-stock',
  'nginx-modules',
  'apache-htaccess',
  'apache-vhost',
  'cloudflare',
  // The include forms in a user's own TLS server block: over HTTPS only (Caddy makes no deltas).
  'nginx-include',
  'apache-include',
]

/**
 * What a chunk comes as without a usable dictionary: brotli, but zstd from the Cloudflare Worker,
 * which leaves out br for Chromium's header because the edge would re-encode it (docs/deploy/cloudflare.md).
 */
const plainCoding = (kind: ServerKind | 'vite-preview'): string =>
  hasServingException(kind.split('-')[0]!, 'edgeSafeCodings') ? 'zstd' : 'br'

const brotliSize = (manifest: Manifest, urlPath: string): number =>
  manifest.files.find((f) => `/${f.path}` === urlPath)!.variants.find((v) => v.encoding === 'br')!.size

/** The size of the delta of `urlPath` in `encoding` (the largest, if there are several dictionaries). */
const deltaSize = (manifest: Manifest, urlPath: string, encoding: string): number =>
  Math.max(
    ...manifest.files
      .find((f) => `/${f.path}` === urlPath)!
      .deltas!.filter((d) => d.encoding === encoding)
      .map((d) => d.size),
  )

for (const kind of KINDS)
  test.describe(`delta updates in Chromium (${kind})`, () => {
    test('a returning visitor gets the changed chunks as dcb/dcz and runs version 2', {
      tag: transportTags(kind),
    }, async ({ browser, tls }) => {
      const work = await tempDir('e2e-deltas')
      await chmod(work.path, 0o755)
      const app = join(work.path, 'app')
      const www = join(work.path, 'www')
      const cache = join(work.path, 'cache')
      const port = await freePort()
      const server = { url: originOf(port, tls) }
      let running: ServingProcess | undefined
      try {
        await writeAppSources(app, 'v1')
        const v1 = await buildApp(app, www, cache)
        running = await start(kind, www, port, join(work.path, 'server-v1'), app, tls)
        expect(
          v1.files.filter((f) => f.useAsDictionary).length,
          JSON.stringify(v1.files.map((f) => [f.path, f.size, f.useAsDictionary])),
        ).toBeGreaterThanOrEqual(2)

        const context = await browser.newContext()
        const page = await context.newPage()
        const first = await loadScripts(page, () => page.goto(`${server.url}/`))
        expect(await page.locator('body').getAttribute('data-version')).toBe('v1')
        expect(
          first.every((r) => r.encoding === plainCoding(kind)),
          JSON.stringify(first),
        ).toBe(true)

        await writeAppSources(app, 'v2')
        const v2 = await buildApp(app, www, cache)
        await running.stop()
        running = await start(kind, www, port, join(work.path, 'server-v2'), app, tls)
        const changed = v2.files.filter((f) => f.deltas && f.deltas.length > 0).map((f) => `/${f.path}`)
        expect(changed.length).toBeGreaterThanOrEqual(2)

        const second = await loadScripts(page, () => page.reload())
        if (tls) await expectSecureH2(page, server.url)
        expect(await page.locator('body').getAttribute('data-version')).toBe('v2')
        expect(await page.locator('body').getAttribute('data-lazy')).toMatch(/^v2:/)
        let deltaBytes = 0
        let wireBytes = 0
        let brotliBytes = 0
        for (const url of changed) {
          const got = second.find((r) => r.url === url)
          expect(got, `${url} requested on reload`).toBeDefined()
          expect(['dcb', 'dcz'], `${url}: ${JSON.stringify(got)}`).toContain(got!.encoding)
          expect(got!.bodyBytes).toBeGreaterThan(0)
          wireBytes += got!.bodyBytes
          deltaBytes += deltaSize(v2, url, got!.encoding!)
          brotliBytes += brotliSize(v2, url)
        }
        // A one-line edit: the update costs a small fraction of brotli's bytes. Over HTTP/1.1 the
        // network log's body size is the body; over HTTP/2 Chromium counts the HEADERS frame in it
        // too (measured: 144 B of deltas logged as 707 B, about 280 B a response), so there the
        // body is the delta file the server sent.
        const sent = tls ? deltaBytes : wireBytes
        expect(sent, `deltas ${sent} B vs brotli ${brotliBytes} B`).toBeLessThan(brotliBytes * 0.05)
        test.info().annotations.push({
          type: 'bytes',
          description: `changed chunks: brotli ${brotliBytes} B, dictionary-compressed ${deltaBytes} B (network log ${wireBytes} B, ${tls ? 'HTTP/2' : 'HTTP/1.1'})`,
        })
        await context.close()

        // A new visitor holds no dictionary: brotli, and the page runs.
        const fresh = await browser.newContext()
        const freshPage = await fresh.newPage()
        const cold = await loadScripts(freshPage, () => freshPage.goto(`${server.url}/`))
        expect(
          cold.every((r) => r.encoding === plainCoding(kind)),
          JSON.stringify(cold),
        ).toBe(true)
        expect(await freshPage.locator('body').getAttribute('data-version')).toBe('v2')
        await fresh.close()

        // A stale or foreign dictionary hash: brotli, byte for byte what no hash gets.
        const chunk = changed[0]!
        const plain = await get(`${server.url}${chunk}`, { 'accept-encoding': CHROMIUM_AE })
        for (const value of [
          `:${createHash('sha256').update('foreign').digest('base64')}:`,
          `:${createHash('sha256').update('v0').digest('base64')}:`,
          ':not-a-hash:',
        ]) {
          const res = await get(`${server.url}${chunk}`, {
            'accept-encoding': CHROMIUM_AE,
            'available-dictionary': value,
          })
          expect(res.one('content-encoding')).toBe(plainCoding(kind))
          expect(res.one('etag')).toBe(plain.one('etag'))
          expect(res.httpVersion).toBe(tls ? '2' : '1.1')
        }
      } catch (error) {
        await test.info().attach('server', { body: running?.logs() ?? '' })
        throw error
      } finally {
        await running?.stop()
        await work.remove()
      }
    })
  })
