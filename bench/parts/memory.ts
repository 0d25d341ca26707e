// Peak memory of @preencode/core's compressDirectory against site size: the same site once and
// ten times over (copies in sub-folders, cache off so every copy is compressed), each run in
// its own child process, plus an idle child that only imports the engine, for reference.
import { cp, mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { BenchContext } from '../lib/context.ts'
import type { PartResult } from '../lib/report.ts'
import { firstLine, fmtBytes, fmtMs, fmtRatio, listFiles, ratio, runChild } from '../lib/util.ts'
import type { CompressOutcome, CompressSpec } from './compress-spec.ts'

/** What "flat, independent of site size" is held to here: peak RSS at 10x within 1.25x of 1x. */
export const MEMORY_GROWTH_LIMIT = 1.25
/** How many times over the site is copied for the large run (2 with --quick). */
export const MEMORY_SCALE = 10
export const memoryTarget = (scale: number): string =>
  `peak memory flat (compressDirectory on a ${scale}x site ≤ ${MEMORY_GROWTH_LIMIT}× the peak RSS of 1x)`
export const MEMORY_TARGET = memoryTarget(MEMORY_SCALE)

export async function measureMemoryScaling(
  ctx: BenchContext,
  part: PartResult,
  source: string,
  work: string,
): Promise<void> {
  await mkdir(work, { recursive: true })
  const measure = async (spec: Omit<CompressSpec, 'resultFile'>): Promise<CompressOutcome> => {
    const resultFile = join(work, 'result.json')
    await rm(resultFile, { force: true })
    const child = await runChild(
      process.execPath,
      [join(import.meta.dirname, 'compress-child.ts'), JSON.stringify({ ...spec, resultFile })],
      { timeoutMs: 20 * 60_000 },
    )
    try {
      return JSON.parse(await readFile(resultFile, 'utf8')) as CompressOutcome
    } catch {
      return {
        ms: Number.NaN,
        maxRssBytes: Number.NaN,
        error: `child exited ${child.code ?? child.signal}: ${child.stderr.slice(-2000)}`,
      }
    }
  }

  const idle = await measure({ dir: null })
  const rows: string[][] = [['idle (import only)', '', '', '', idle.error ? 'failed' : fmtBytes(idle.maxRssBytes), '—']]
  const rss: number[] = []
  const scale = ctx.quick ? 2 : MEMORY_SCALE
  for (const copies of [1, scale]) {
    const site = join(work, `site-${copies}x`)
    for (let i = 0; i < copies; i++) await cp(source, join(site, `copy${i}`), { recursive: true })
    const files = await listFiles(site)
    const bytes = [...files.values()].reduce((a, b) => a + b, 0)
    ctx.log(`build: compressDirectory on the ${copies}x site (${fmtBytes(bytes)})…`)
    const outcome = await measure({ dir: site })
    if (outcome.error) part.notes.push(`compressDirectory on the ${copies}x site failed: ${firstLine(outcome.error)}`)
    else ctx.log(`build: ${copies}x: ${fmtMs(outcome.ms)}, peak RSS ${fmtBytes(outcome.maxRssBytes)}`)
    rss.push(outcome.error ? Number.NaN : outcome.maxRssBytes)
    rows.push(
      outcome.error
        ? [`${copies}x`, String(files.size), fmtBytes(bytes), 'failed', '', '']
        : [
            `${copies}x`,
            String(files.size),
            fmtBytes(bytes),
            fmtMs(outcome.ms),
            fmtBytes(outcome.maxRssBytes),
            idle.error ? 'n/a' : fmtBytes(outcome.maxRssBytes - idle.maxRssBytes),
          ],
    )
    await rm(site, { recursive: true, force: true })
  }
  const growth = ratio(rss[1]!, rss[0]!)
  const idleRss = idle.error ? Number.NaN : idle.maxRssBytes
  rows.push([`${scale}x / 1x`, '', '', '', fmtRatio(growth), fmtRatio(ratio(rss[1]! - idleRss, rss[0]! - idleRss))])
  part.tables.push({
    title:
      'Peak memory of compressDirectory against site size (cache off, gzip + brotli + zstd, one child process per run)',
    columns: ['site', 'files', 'bytes', 'time', 'peak RSS', 'over idle'],
    rows,
    notes: [
      `the ${scale}x site is the plain build copied ${scale} times into sub-folders; the cache is off, so every copy is compressed`,
      '"idle" is a child that only imports @preencode/core; "over idle" is what compressing added',
    ],
  })
  part.targets.push({
    part: 'build',
    target: memoryTarget(scale),
    measured: fmtRatio(growth),
    pass: Number.isFinite(growth) ? growth <= MEMORY_GROWTH_LIMIT : undefined,
  })
}
