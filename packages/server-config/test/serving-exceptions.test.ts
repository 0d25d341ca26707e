// The named exceptions (exceptions.ts) the e2e serving table reads: Caddy's own reading of weights
// and the Cloudflare front line's encoding of an original, each checked against real servers there.
import { join } from 'node:path'
import type { Manifest, ManifestFile } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectedCoding, serverCoding } from '../src/exceptions.js'
import { buildFixtureSite } from './fixture.ts'

let dir: Awaited<ReturnType<typeof tempDir>>
let manifest: Manifest
let file: ManifestFile

beforeAll(async () => {
  dir = await tempDir('exceptions')
  manifest = await buildFixtureSite(join(dir.path, 'site'))
  const all = manifest.files.find((f) => ['br', 'gzip', 'zstd'].every((e) => f.variants.some((v) => v.encoding === e)))
  if (!all) throw new Error('the fixture has no file with br, gzip and zstd variants')
  file = all
})
afterAll(() => dir.remove())

describe('serving exceptions', () => {
  it('Caddy ranks by weight before its fixed order', () => {
    expect(expectedCoding('caddy', manifest, 'br;q=0.5, gzip', file)).toBe('gzip')
    expect(expectedCoding('caddy', manifest, 'gzip, br', file)).toBe('br')
  })

  it('the configured servers send the fixed order, the JavaScript ones the smallest, where sizes disagree', () => {
    // A file whose zstd variant is smaller than its br one (no mark tells the servers so).
    const sizes: Record<string, number> = { zstd: 100, br: 101, gzip: 102 }
    const variants = file.variants.map((v) => ({ ...v, size: sizes[v.encoding]! })).sort((a, b) => a.size - b.size)
    const odd = { ...file, variants }
    for (const server of ['nginx', 'apache', 'caddy'])
      expect(serverCoding(server, manifest, 'gzip, br, zstd', odd)).toBe('br')
    expect(serverCoding('node', manifest, 'gzip, br, zstd', odd)).toBe('zstd')
  })

  it('Caddy reads a malformed weight as ParseFloat does; the other servers ignore the entry', () => {
    expect(expectedCoding('caddy', manifest, 'br;q=2', file)).toBe('br')
    expect(expectedCoding('caddy', manifest, 'br;q=.5, gzip', file)).toBe('gzip')
    expect(expectedCoding('nginx', manifest, 'br;q=2', file)).toBe('identity')
  })

  it("the Worker sends the original where the front line's weights pick br, which the edge encodes", () => {
    const header = 'br;q=1.0001, gzip;q=0.5'
    expect(serverCoding('cloudflare', manifest, header, file)).toBe('identity')
    expect(expectedCoding('cloudflare', manifest, header, file)).toBe('br')
    expect(expectedCoding('cloudflare', manifest, 'gzip', file)).toBe(
      serverCoding('cloudflare', manifest, 'gzip', file),
    )
  })
})
