// Delta updates on a fresh CI runner, in Chromium: version 1 and version 2 are each built in
// their own checkout with an empty cache (so the build itself writes no deltas), and shipped with
// `preencode deploy --release` (rsync into releases/<id>, `current` swapped). The deploy of
// version 2 reads version 1 from the target, writes the deltas and uploads them before the page;
// the reload gets the changed chunks as dcb/dcz and runs version 2. The Node middleware runs
// twice: given the build's manifest, and on the deployed folder as it is (reading the manifest of
// what was deployed that the deploy leaves in the release, issue 36.3).
import { spawnSync } from 'node:child_process'
import { chmod } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { readManifest } from '@preencode/core'
import { freePort, REPO_ROOT, tempDir } from '@preencode/test-utils'
import { type ServingProcess, startServerOnPort } from '../harness/servers.ts'
import { buildApp, loadScripts, writeAppSources } from './app.ts'

const BIN = join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js')

function deployRelease(dist: string, www: string): string {
  const run = spawnSync(process.execPath, [BIN, 'deploy', dist, '--to', www, '--release'], {
    encoding: 'utf8',
    timeout: 300_000,
  })
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
  return run.stdout
}

const SERVERS = [
  { kind: 'nginx-stock', manifest: true, name: 'nginx-stock' },
  { kind: 'node', manifest: true, name: 'node' },
  { kind: 'node', manifest: false, name: 'node, the deployed folder with the manifest the deploy left' },
] as const

for (const { kind, manifest, name } of SERVERS)
  test(`fresh checkouts, empty caches: the deploy makes the deltas from the target (${name})`, async ({ browser }) => {
    const work = await tempDir('e2e-deploy-deltas')
    await chmod(work.path, 0o755)
    const www = join(work.path, 'www')
    const live = join(www, 'current')
    const port = await freePort()
    let running: ServingProcess | undefined
    try {
      const a = join(work.path, 'checkout-a')
      await writeAppSources(a, 'v1')
      const v1 = await buildApp(a, join(a, 'dist'), join(work.path, 'cache-a'))
      deployRelease(join(a, 'dist'), www)
      running = await startServerOnPort(kind, live, port, join(work.path, 'server-v1'), manifest ? v1 : undefined)
      const context = await browser.newContext()
      const page = await context.newPage()
      await loadScripts(page, () => page.goto(`http://127.0.0.1:${port}/`))
      expect(await page.locator('body').getAttribute('data-version')).toBe('v1')

      const b = join(work.path, 'checkout-b')
      await writeAppSources(b, 'v2')
      const built = await buildApp(b, join(b, 'dist'), join(work.path, 'cache-b'))
      expect(built.files.filter((f) => f.deltas?.length).length, 'no history: the build writes no deltas').toBe(0)
      const output = deployRelease(join(b, 'dist'), www)
      expect(output).toMatch(/dictionary transport: \d+ changed files? as deltas/)
      const v2 = await readManifest(join(b, 'dist'))
      const changed = v2.files.filter((f) => f.deltas?.length).map((f) => `/${f.path}`)
      expect(changed.length).toBeGreaterThanOrEqual(2)
      await running.stop()
      running = await startServerOnPort(kind, live, port, join(work.path, 'server-v2'), manifest ? v2 : undefined)

      const second = await loadScripts(page, () => page.reload())
      expect(await page.locator('body').getAttribute('data-version')).toBe('v2')
      let deltaBytes = 0
      let brotliBytes = 0
      for (const url of changed) {
        const got = second.find((r) => r.url === url)
        expect(['dcb', 'dcz'], `${url}: ${JSON.stringify(got)}`).toContain(got?.encoding)
        deltaBytes += got!.bodyBytes
        brotliBytes += v2.files.find((f) => `/${f.path}` === url)!.variants.find((v) => v.encoding === 'br')!.size
      }
      expect(deltaBytes, `deltas ${deltaBytes} B vs brotli ${brotliBytes} B`).toBeLessThan(brotliBytes * 0.05)
      await context.close()
    } catch (error) {
      await test.info().attach('server', { body: running?.logs() ?? '' })
      throw error
    } finally {
      await running?.stop()
      await work.remove()
    }
  })
