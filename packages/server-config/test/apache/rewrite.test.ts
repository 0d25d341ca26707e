// The Apache-only short forms that keep the per-request .htaccess cheap decide exactly like
// the long forms they replace (the e2e suite proves the served result on a real Apache).
import { chmod } from 'node:fs/promises'
import { cacheClassOf, resolveCachePolicy } from '@preencode/core/internal'
import { apacheConfig, negotiate } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'
import { get } from '../../../../e2e/harness/http.ts'
import { startServer } from '../../../../e2e/harness/servers.ts'
import { hashedNamePattern } from '../../src/shared/policy.js'
import { HASHED_NAME_PCRE } from '../../src/shared/policy.ts'
import { buildFixtureSite } from '../fixture.ts'

const looksContentHashed = (path: string): boolean => cacheClassOf(path, resolveCachePolicy()) === 'immutable'

/** Deterministic pseudo-random names around the 8-character boundary, with every separator. */
function names(count: number): string[] {
  let seed = 0x9e3779b9
  const next = (n: number): number => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0
    return seed % n
  }
  const alphabets = ['abcdefgh', 'ABCDEFGH', '0123456789', '_-', 'abcdef0123456789', '.~']
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    const mix = alphabets.filter(() => next(2) === 0).join('') || 'abc'
    const length = [6, 7, 8, 9, 15, 16, 17, 40, 64, 65][next(10)]!
    let token = ''
    for (let j = 0; j < length; j++) token += mix[next(mix.length)]
    const separator = '-._~x'[next(5)]
    const extension = ['js', 'css', 'min.js', 'map', ''][next(5)]
    out.push(`${next(3) === 0 ? 'dir-Ab12cd34/' : ''}name${separator}${token}${extension ? `.${extension}` : ''}`)
  }
  return out
}

describe('Apache rewrite short forms', () => {
  it('the lookahead content-hash pattern decides like looksContentHashed and hashedNamePattern()', () => {
    const short = new RegExp(HASHED_NAME_PCRE)
    const long = new RegExp(hashedNamePattern())
    const corpus = names(20_000)
    let hashed = 0
    for (const name of corpus) {
      const expected = looksContentHashed(name)
      if (expected) hashed++
      expect(short.test(`/${name}`), name).toBe(expected)
      expect(short.test(`/${name}`), name).toBe(long.test(`/${name}`))
    }
    // The corpus exercises both answers, not one.
    expect(hashed, `${hashed} hashed names`).toBeGreaterThan(1_000)
    expect(corpus.length - hashed).toBeGreaterThan(1_000)
    expect(HASHED_NAME_PCRE.length * 10).toBeLessThan(hashedNamePattern().length)
  }, 120_000)

  it('a URL announced as a dictionary (Use-As-Dictionary) is in the immutable class: fresh as long as its deltas', async () => {
    const dir = await tempDir('apache-uad')
    const manifest = await buildFixtureSite(dir.path, { keepOriginals: true }).finally(() => dir.remove())
    const rule = /^RewriteRule "(.*)" - \[E=PE_UAD:/m.exec(apacheConfig(manifest))
    expect(rule).toBeTruthy()
    const announces = new RegExp(rule![1]!)
    const immutable = new RegExp(HASHED_NAME_PCRE)
    let announced = 0
    for (const name of [...names(20_000).map((n) => n.replace(/\.min\.js$/, '.js')), 'assets/lib-abcdefgh.js']) {
      if (!announces.test(name)) continue
      announced++
      expect(immutable.test(`/${name}`), name).toBe(true)
    }
    expect(announced).toBeGreaterThan(1_000)
  }, 120_000)

  it('the .htaccess compiles the compressible-extension list once, the vhost keeps its <FilesMatch>', async () => {
    const dir = await tempDir('apache-rewrite')
    const manifest = await buildFixtureSite(dir.path, { keepOriginals: true }).finally(() => dir.remove())
    const list = '(?:html|js|css|'
    const count = (text: string): number => text.split(list).length - 1
    const htaccess = apacheConfig(manifest)
    expect(count(htaccess)).toBe(1)
    expect(htaccess).toContain('[E=PE_C:1,E=no-gzip:1,E=no-brotli:1]')
    expect(htaccess).not.toMatch(/%\{ENV:PE_AE_\w+\}:/)
    expect(count(apacheConfig(manifest, { form: 'vhost', root: '/srv/site' }))).toBe(3)
  }, 120_000)
})

describe.each(['apache-htaccess', 'apache-vhost'] as const)('%s on a real Apache', (kind) => {
  it('refuses a coding named twice if one entry has q=0, and never mislabels a sidecar asked for by its URL', async () => {
    const dir = await tempDir(`apache-${kind}`)
    try {
      await chmod(dir.path, 0o755)
      const manifest = await buildFixtureSite(dir.path, { keepOriginals: true })
      const file = manifest.files.find((f) => /\.js$/.test(f.path) && f.variants.length === 3)!
      const server = await startServer(kind, manifest, dir.path)
      try {
        const order = [...file.variants].sort((a, b) => a.size - b.size).map((v) => v.encoding)
        for (const header of ['br, br;q=0', 'br;q=0, br, gzip', 'gzip, x-gzip;q=0', 'zstd;q=0, *', 'br, *;q=0, zstd']) {
          const res = await get(`${server.url}/${file.path}`, { 'accept-encoding': header })
          expect(res.status, header).toBe(200)
          expect(res.one('content-encoding') ?? 'identity', header).toBe(negotiate(header, order) ?? 'identity')
        }
        for (const variant of file.variants) {
          const res = await get(`${server.url}/${variant.path}`, { 'accept-encoding': 'gzip, deflate, br, zstd' })
          expect(res.status, variant.path).toBe(200)
          if (res.one('content-encoding') === undefined)
            expect(res.one('content-type'), variant.path).not.toBe(file.contentType)
          else expect(res.one('content-encoding'), variant.path).toBe(variant.encoding)
        }
      } finally {
        await server.stop()
      }
    } finally {
      await dir.remove()
    }
  }, 120_000)
})
