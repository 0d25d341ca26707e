// Varnish with the generated VCL in front of the generated nginx config (stock flavour): the
// request matrix in interleaved order (every case is the first client of some URL), each answer
// right and none carrying another client's coding; then the hit ratio of a replay of the whole
// site after a warm-up; and what stock Varnish (no preencode VCL) gets wrong on the same matrix.

import { createHash } from 'node:crypto'
import { VERSIONED_ASSET_PATTERN } from '../../packages/core/src/http/use-as-dictionary.js'
import { expect, test } from '../harness/fixtures.ts'
import { get } from '../harness/http.ts'
import { DOTFILES } from '../harness/site.ts'
import { expectedCoding, judge, MATRIX, servedFiles, urlsOf } from './matrix.ts'
import { fastlyLikeVcl, generatedVcl, type RunningVarnish, startVarnish, stockVcl } from './varnish.ts'

const port = (url: string): number => Number(new URL(url).port)

async function withVarnish<T>(
  vcl: string,
  run: (varnish: RunningVarnish) => Promise<T>,
  params: string[] = [],
): Promise<T> {
  const varnish = await startVarnish(vcl, undefined, params)
  try {
    return await run(varnish)
  } catch (error) {
    await test.info().attach('varnish', { body: varnish.logs() })
    throw error
  } finally {
    await varnish.stop()
  }
}

/** Runs the whole matrix over the site in interleaved order; failures per case name. */
async function runMatrix(
  base: string,
  site: { root: string; manifest: import('@preencode/core').Manifest },
): Promise<{ requests: number; failures: Map<string, string[]> }> {
  const failures = new Map<string, string[]>()
  let requests = 0
  const files = servedFiles(site.manifest)
  let u = 0
  for (const file of files) {
    const cases = MATRIX.filter((c) => !c.range || file.variants.length > 0)
    for (const url of urlsOf(file.path)) {
      // Rotate: the first client of this URL is a different case each time; twice round, so
      // the second round answers from the cache.
      const start = u++ % cases.length
      const order = [...cases.slice(start), ...cases.slice(0, start)]
      for (const c of [...order, ...order]) {
        requests++
        const problems = await judge(base, site.root, site.manifest, file, url, c)
        if (problems.length > 0)
          failures.set(c.name, [...(failures.get(c.name) ?? []), `${url}: ${problems.join('; ')}`])
      }
    }
  }
  return { requests, failures }
}

test('the generated VCL: every answer of the interleaved matrix is right', async ({ server, site }) => {
  await withVarnish(generatedVcl(site.manifest, port(server.url)), async (varnish) => {
    const { requests, failures } = await runMatrix(varnish.url, site)
    expect(Object.fromEntries(failures)).toEqual({})
    // Dotfiles stay 404 through the cache, asked twice (a stored answer would be the second).
    for (const path of Object.keys(DOTFILES))
      for (const round of [1, 2]) {
        const res = await get(`${varnish.url}/${path}`, { 'accept-encoding': 'gzip, br, zstd' })
        expect(res.status, `${path} (round ${round})`).toBe(404)
        expect(res.body.toString('latin1'), path).not.toContain('preencode-e2e-secret')
      }
    const counters = await varnish.counters()
    test.info().annotations.push({
      type: 'matrix',
      description: `${MATRIX.length} cases, ${requests} requests, 0 wrong; cache_hit ${counters['MAIN.cache_hit']}, cache_miss ${counters['MAIN.cache_miss']}`,
    })
    expect(counters['MAIN.cache_hit']).toBeGreaterThan(0)
  })
})

test('the generated VCL: a replay of the whole site after a warm-up is served from the cache', async ({
  server,
  site,
}) => {
  await withVarnish(generatedVcl(site.manifest, port(server.url)), async (varnish) => {
    const clients: Record<string, string>[] = [
      { 'accept-encoding': 'gzip, deflate, br, zstd' },
      { 'accept-encoding': 'gzip' },
      {},
    ]
    const urls = servedFiles(site.manifest).flatMap((f) => urlsOf(f.path))
    for (const headers of clients) for (const url of urls) await get(`${varnish.url}${url}`, headers)
    const before = await varnish.counters()
    let hits = 0
    let total = 0
    for (const headers of clients)
      for (const url of urls) {
        const res = await get(`${varnish.url}${url}`, headers)
        expect(res.status, url).toBe(200)
        total++
        // X-Varnish: two ids on a hit (this request's and the stored object's), one on a miss.
        if ((res.one('x-varnish') ?? '').trim().split(/\s+/).length === 2) hits++
        else expect(res.one('cache-control'), `${url} ${JSON.stringify(headers)}: a miss on replay`).toBe('no-cache')
      }
    const after = await varnish.counters()
    const delta = (name: string): number => (after[name] ?? 0) - (before[name] ?? 0)
    // no-cache (HTML) is revalidated on every use: a 304 from the origin, the stored body sent.
    const revalidated = delta('MAIN.fetch_304')
    const fetchedWhole = delta('MAIN.s_fetch') - revalidated
    const ratio = (total - fetchedWhole) / total
    test.info().annotations.push({
      type: 'hit ratio',
      description: `${total} requests on replay: ${hits} hits (${((hits / total) * 100).toFixed(1)}%), ${revalidated} no-cache revalidated by a 304 with the stored body, ${fetchedWhole} fetched whole; answered from the cache's bodies ${(ratio * 100).toFixed(1)}%`,
    })
    expect(hits + revalidated).toBe(total)
    expect(ratio).toBeGreaterThanOrEqual(0.95)
  })
})

test('stock Varnish in front of the same nginx: which matrix cases it gets wrong', async ({ server, site }) => {
  await withVarnish(stockVcl(port(server.url)), async (varnish) => {
    const { failures } = await runMatrix(varnish.url, site)
    test.info().annotations.push({
      type: 'stock Varnish',
      description: `${failures.size} of ${MATRIX.length} cases fail: ${[...failures].map(([name, list]) => `${name} (${list.length}, e.g. ${list[0]})`).join(' | ')}`,
    })
    // Measured: http_gzip_support sends the origin gzip only, so br/zstd never reach it.
    expect(failures.size).toBeGreaterThan(0)
    expect([...failures.keys()]).toContain('br+zstd (Chromium)')
  })
})

test('the generated VCL with http_gzip_support off: the same matrix is right', async ({ server, site }) => {
  await withVarnish(
    generatedVcl(site.manifest, port(server.url)),
    async (varnish) => {
      const { failures } = await runMatrix(varnish.url, site)
      expect(Object.fromEntries(failures)).toEqual({})
    },
    ['http_gzip_support=off'],
  )
})

test("Fastly's Accept-Encoding normalisation, played by Varnish: the restore lines of docs/cdn.md undo it", async ({
  server,
  site,
}) => {
  const vcl = generatedVcl(site.manifest, port(server.url))
  const without = await withVarnish(
    fastlyLikeVcl(vcl, false),
    async (varnish) => (await runMatrix(varnish.url, site)).failures,
  )
  // Every client gets gzip or nothing: br and zstd clients are the ones it fails.
  expect([...without.keys()]).toContain('br+zstd (Chromium)')
  await withVarnish(fastlyLikeVcl(vcl, true), async (varnish) => {
    const { failures } = await runMatrix(varnish.url, site)
    expect(Object.fromEntries(failures)).toEqual({})
  })
  test.info().annotations.push({
    type: 'fastly',
    description: `without the restore lines ${without.size} of ${MATRIX.length} cases fail; with them 0`,
  })
})

test('Available-Dictionary splits the cache only where a delta can exist', async ({ server, site }) => {
  const versioned = new RegExp(VERSIONED_ASSET_PATTERN)
  const base = (path: string): string => path.slice(path.lastIndexOf('/') + 1)
  const withVariants = servedFiles(site.manifest).filter((f) => f.variants.length > 0 && f.cacheClass !== 'html')
  const asset = withVariants.find((f) => versioned.test(base(f.path)))
  const plain = withVariants.find((f) => !versioned.test(base(f.path)))
  expect(asset, 'a versioned asset with variants').toBeDefined()
  expect(plain, 'a non-versioned file with variants (public/)').toBeDefined()
  const hash = (seed: string): string => `:${createHash('sha256').update(seed).digest('base64')}:`
  await withVarnish(generatedVcl(site.manifest, port(server.url)), async (varnish) => {
    const hit = async (path: string, dictionary: string): Promise<boolean> => {
      const res = await get(`${varnish.url}/${path}`, {
        'accept-encoding': 'gzip, deflate, br, zstd, dcb, dcz',
        'available-dictionary': dictionary,
      })
      const file = site.manifest.files.find((f) => f.path === path)!
      expect(res.one('content-encoding'), path).toBe(expectedCoding(site.manifest, file, 'gzip, deflate, br, zstd'))
      return (res.one('x-varnish') ?? '').trim().split(/\s+/).length === 2
    }
    // A versioned asset: each dictionary is its own object (a delta may exist for one of them).
    expect(await hit(asset!.path, hash('a'))).toBe(false)
    expect(await hit(asset!.path, hash('b'))).toBe(false)
    expect(await hit(asset!.path, hash('a'))).toBe(true)
    // Elsewhere the header is dropped: one object whatever the dictionary.
    expect(await hit(plain!.path, hash('a'))).toBe(false)
    expect(await hit(plain!.path, hash('b'))).toBe(true)
    expect(await hit(plain!.path, ':not-a-hash:')).toBe(true)
  })
})
