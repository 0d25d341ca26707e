// RFC 9842 through Varnish: the delta app (e2e/dictionary/app.ts) behind the generated nginx
// config, the generated VCL in front. Chromium loads version 1 through the cache, version 2 is
// deployed behind it (nginx restarted on its port, Varnish kept with what it stored), and the
// reload gets the changed chunks as dcb/dcz deltas and runs version 2. Then the dictionary cases
// of the matrix, interleaved with plain ones: a valid hash gets the delta, a wrong one or none
// gets the plain coding, and no answer reaches a request it was not made for.
import { createHash } from 'node:crypto'
import { chmod } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { freePort, tempDir } from '@preencode/test-utils'
import { buildApp, loadScripts, writeAppSources } from '../dictionary/app.ts'
import { get } from '../harness/http.ts'
import { type ServingProcess, startServerOnPort } from '../harness/servers.ts'
import { judge, MATRIX } from './matrix.ts'
import { generatedVcl, type RunningVarnish, startVarnish } from './varnish.ts'

const CHROMIUM_AE = 'gzip, deflate, br, zstd, dcb, dcz'

test('Chromium gets a delta update through Varnish; the dictionary matrix is right', async ({ browser }) => {
  const work = await tempDir('e2e-cache-deltas')
  await chmod(work.path, 0o755)
  const app = join(work.path, 'app')
  const www = join(work.path, 'www')
  const cache = join(work.path, 'cache')
  const originPort = await freePort()
  let origin: ServingProcess | undefined
  let varnish: RunningVarnish | undefined
  try {
    await writeAppSources(app, 'v1')
    const v1 = await buildApp(app, www, cache)
    origin = await startServerOnPort('nginx-stock', www, originPort, join(work.path, 'nginx-v1'))
    varnish = await startVarnish(generatedVcl(v1, originPort))

    const context = await browser.newContext()
    const page = await context.newPage()
    const first = await loadScripts(page, () => page.goto(`${varnish!.url}/`))
    expect(await page.locator('body').getAttribute('data-version')).toBe('v1')
    expect(
      first.every((r) => r.encoding === 'br'),
      JSON.stringify(first),
    ).toBe(true)

    await writeAppSources(app, 'v2')
    const v2 = await buildApp(app, www, cache)
    await origin.stop()
    origin = await startServerOnPort('nginx-stock', www, originPort, join(work.path, 'nginx-v2'))
    const changed = v2.files.filter((f) => f.deltas && f.deltas.length > 0)
    expect(changed.length).toBeGreaterThanOrEqual(2)

    const second = await loadScripts(page, () => page.reload())
    expect(await page.locator('body').getAttribute('data-version')).toBe('v2')
    expect(await page.locator('body').getAttribute('data-lazy')).toMatch(/^v2:/)
    for (const file of changed) {
      const got = second.find((r) => r.url === `/${file.path}`)
      expect(['dcb', 'dcz'], `/${file.path}: ${JSON.stringify(got)}`).toContain(got?.encoding)
    }
    await context.close()

    // The dictionary cases, interleaved with the plain ones, twice round (the second from the cache).
    const wrong = `:${createHash('sha256').update('foreign').digest('base64')}:`
    for (const [i, file] of changed.entries()) {
      const url = `/${file.path}`
      const delta = file.deltas![0]!
      const valid = `:${delta.dictionary}:`
      const cases = [
        { name: 'valid dictionary', headers: { 'accept-encoding': CHROMIUM_AE, 'available-dictionary': valid } },
        { name: 'wrong dictionary', headers: { 'accept-encoding': CHROMIUM_AE, 'available-dictionary': wrong } },
        ...MATRIX.slice(0, 6),
        { name: 'dictionary, no dcb/dcz', headers: { 'accept-encoding': 'gzip, br', 'available-dictionary': valid } },
      ]
      const start = i % cases.length
      const order = [...cases.slice(start), ...cases.slice(0, start)]
      for (const c of [...order, ...order]) {
        if (c.name === 'valid dictionary') {
          const res = await get(`${varnish.url}${url}`, c.headers)
          const served = file.deltas!.find(
            (d) => d.encoding === res.one('content-encoding') && d.dictionary === delta.dictionary,
          )
          expect(served, `${url} ${c.name}: ${res.one('content-encoding')}`).toBeDefined()
          expect(createHash('sha256').update(res.body).digest('hex')).toBe(served!.sha256)
          expect(res.one('vary')?.toLowerCase()).toMatch(/accept-encoding.*available-dictionary/)
          expect(res.one('content-type')).toBe(file.contentType)
        } else {
          expect(await judge(varnish.url, www, v2, file, url, c), `${url} ${c.name}`).toEqual([])
        }
      }
    }
    const counters = await varnish.counters()
    test.info().annotations.push({
      type: 'cache',
      description: `cache_hit ${counters['MAIN.cache_hit']}, cache_miss ${counters['MAIN.cache_miss']}, fetch_304 ${counters['MAIN.fetch_304']}`,
    })
  } catch (error) {
    await test.info().attach('servers', { body: `${varnish?.logs() ?? ''}\n${origin?.logs() ?? ''}` })
    throw error
  } finally {
    await varnish?.stop()
    await origin?.stop()
    await work.remove()
  }
})
