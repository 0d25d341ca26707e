import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { glob } from 'tinyglobby'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeBuffer } from '../../src/codecs/encode.js'
import { formatOfVariantPath, stripVariantExtension } from '../../src/codecs/table.js'
import { compress as compressDirectory } from '../../src/run/compress.js'
import { TEMP_FILE_PATTERN } from '../../src/run/scan.js'
import { CORE_DIST, put, textOf } from '../fixtures.js'

/**
 * Runs compressDirectory in a child process and SIGKILLs it once it has finished a few files,
 * i.e. mid-run with encodes and writes in flight: nothing gets a chance to clean up.
 */
function runAndKill(
  site: string,
  cache: string,
  afterFiles: number,
): Promise<{ killed: boolean; progressSeen: number }> {
  const script = `
    const { compress: compressDirectory } = await import(${JSON.stringify(CORE_DIST)})
    await compressDirectory(${JSON.stringify(site)}, { cache: ${JSON.stringify(cache)}, concurrency: 2 }, {
      onProgress: (done) => process.stdout.write('progress ' + done + '\\n'),
    })
    process.stdout.write('finished\\n')`
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] })
  let progressSeen = 0
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      progressSeen += (d.toString().match(/progress/g) ?? []).length
      if (progressSeen >= afterFiles && child.exitCode === null) child.kill('SIGKILL')
    })
    child.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ killed: true, progressSeen })
      else if (code === 0) resolve({ killed: false, progressSeen })
      else reject(new Error(`child exited ${code}: ${stderr}`))
    })
  })
}

describe('a run killed mid-way', () => {
  let site: Awaited<ReturnType<typeof tempDir>>
  let cache: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    site = await tempDir('killed')
    cache = await tempDir('killed-cache')
    // Enough brotli-11 work (about 5 MB of text) that the kill lands while most files are pending.
    for (let i = 0; i < 40; i++) await put(site.path, `assets/chunk-${i}.js`, textOf(120_000, 100 + i))
    await put(site.path, 'assets/big.js', textOf(2_000_000, 99))
  })
  afterAll(async () => {
    await site.remove()
    await cache.remove()
  })

  it('leaves no partial file under a final name, and the next run cleans up and completes', async () => {
    const outcome = await runAndKill(site.path, cache.path, 3)
    expect(outcome.killed).toBe(true)

    const files = await glob(['**/*'], { cwd: site.path, dot: true })
    const variants = files.filter((f) => formatOfVariantPath(f) && !TEMP_FILE_PATTERN.test(f))
    const temps = files.filter((f) => TEMP_FILE_PATTERN.test(f))
    // Some files finished before the kill; every variant under its final name is complete.
    expect(variants.length).toBeGreaterThan(0)
    for (const variant of variants) {
      const original = await readFile(join(site.path, stripVariantExtension(variant)))
      const decoded = await decodeBuffer(
        formatOfVariantPath(variant)!.encoding,
        await readFile(join(site.path, variant)),
      )
      expect(decoded.equals(original), variant).toBe(true)
    }
    console.info(
      `killed after ${outcome.progressSeen} files: ${variants.length} complete variants, ${temps.length} temp files left`,
    )
    // Whether the kill landed between a temp write and its rename is luck; plant what it leaves
    // when it does (a half-written temp of a dead pid) so the clean-up is always exercised.
    const planted = 'assets/.chunk-7.js.br.tmp-4194303-deadbeef'
    await put(site.path, planted, Buffer.from('half a brotli stream'))
    temps.push(planted)

    const { report, manifest } = await compressDirectory(site.path, { cache: cache.path, concurrency: 2 })
    expect(report.removed.tempFiles).toBe(temps.length)
    const after = await glob(['**/*'], { cwd: site.path, dot: true })
    expect(after.filter((f) => TEMP_FILE_PATTERN.test(f))).toEqual([])
    expect(manifest.files).toHaveLength(41)
    expect(manifest.files.every((f) => f.variants.length === 3)).toBe(true)
    // What the killed run finished and cached is not compressed again.
    expect(report.cache.hits).toBeGreaterThanOrEqual(variants.length)
  })
})
