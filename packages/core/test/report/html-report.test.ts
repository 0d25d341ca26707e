// The HTML report's returning-visitor line, on two real builds of a small site: the second build
// changes a content-hashed script, so its deltas against the first build's version say what a
// visitor back after the deploy downloads instead of brotli.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeDeltas } from '../../src/deltas/write-deltas.js'
import type { Manifest } from '../../src/manifest/manifest.js'
import { resolveDeltaOptions } from '../../src/options/delta-options.js'
import { renderHtmlReport } from '../../src/report/html-report.js'
import { formatBytes } from '../../src/report/units.js'
import { compress } from '../../src/run/compress.js'
import { textOf } from '../fixtures.js'

type Temp = Awaited<ReturnType<typeof tempDir>>

const APP = textOf(40_000, 21)

async function build(root: string, cacheDir: string, name: string, bytes: Buffer): Promise<Manifest> {
  await rm(root, { recursive: true, force: true })
  const files = {
    'index.html': Buffer.from(`<!doctype html><script type="module" src="/assets/${name}"></script>`),
    [`assets/${name}`]: bytes,
  }
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), content)
  }
  const { manifest } = await compress(root, { cache: cacheDir })
  return (await writeDeltas(root, manifest, resolveDeltaOptions({}), { cacheDir })).manifest
}

describe('renderHtmlReport: a returning visitor', () => {
  let site: Temp
  let cache: Temp
  beforeEach(async () => {
    site = await tempDir('html-report-site')
    cache = await tempDir('html-report-cache')
  })
  afterEach(async () => {
    await site.remove()
    await cache.remove()
  })

  it('says what the changed files with deltas cost against their brotli, and nothing before there are deltas', async () => {
    const first = await build(site.path, cache.path, 'app-Dk3mQ9xZ.js', APP)
    expect(renderHtmlReport(first)).not.toContain('returning visitor')
    const edited = Buffer.concat([APP.subarray(0, 20_000), Buffer.from('\nconst edit = 1;\n'), APP.subarray(20_000)])
    const second = await build(site.path, cache.path, 'app-Qz8rT2wB.js', edited)
    const app = second.files.find((f) => f.path === 'assets/app-Qz8rT2wB.js')!
    expect(app.deltas?.length).toBeGreaterThan(0)
    const delta = Math.min(...app.deltas!.map((d) => d.size))
    const brotli = app.variants.find((v) => v.format === 'brotli')!.size
    expect(delta).toBeLessThan(brotli)
    expect(renderHtmlReport(second)).toContain(
      `A returning visitor downloads ${formatBytes(delta)} instead of ${formatBytes(brotli)} (brotli) for the 1 changed file with deltas`,
    )
  })
})
