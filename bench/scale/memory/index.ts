// Peak memory against site size: the same site once and ten times over (copies in sub-folders,
// cache off so every copy is compressed). Measured two ways, each run in a process of its own:
// `preencode compress` as CI runs it (the target; on glibc it re-images itself once with
// malloc's mmap threshold fixed, packages/cli/src/malloc-tuning.ts, and reports its own peak), and @preencode/core's compressDirectory in a plain Node process, as the Vite
// plugin runs it inside Vite (no such setting), plus an idle child that only imports the engine.
import { cp, mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { CompressReport } from '@preencode/core'
import type { BenchContext } from '../../lib/context.ts'
import { CLI_BIN } from '../../lib/paths.ts'
import type { PartResult } from '../../lib/report.ts'
import { firstLine, fmtBytes, fmtMs, fmtRatio, listFiles, ratio, runChild } from '../../lib/util.ts'
import type { CompressOutcome, CompressSpec } from './spec.ts'

/** What "flat, independent of site size" is held to here: peak RSS at 10x within 1.25x of 1x. */
const MEMORY_GROWTH_LIMIT = 1.25
/** How many times over the site is copied for the large run (2 with --quick). */
const MEMORY_SCALE = 10
const memoryTarget = (scale: number): string =>
  `peak memory flat (\`preencode compress\` on a ${scale}x site ≤ ${MEMORY_GROWTH_LIMIT}× the peak RSS of 1x)`
export const MEMORY_TARGET = memoryTarget(MEMORY_SCALE)

export async function measureMemoryScaling(
  ctx: BenchContext,
  part: PartResult,
  source: string,
  work: string,
): Promise<void> {
  await mkdir(work, { recursive: true })
  const library = async (dir: string | null): Promise<CompressOutcome> => {
    const resultFile = join(work, 'result.json')
    await rm(resultFile, { force: true })
    const child = await runChild(
      process.execPath,
      [join(import.meta.dirname, 'child.ts'), JSON.stringify({ dir, resultFile } satisfies CompressSpec)],
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
  const cli = async (dir: string): Promise<CompressOutcome> => {
    const child = await runChild(
      process.execPath,
      [CLI_BIN, 'compress', dir, '--no-cache', '--no-deltas', '--formats', 'gzip,brotli,zstd', '--json'],
      { timeoutMs: 20 * 60_000 },
    )
    try {
      const report = JSON.parse(child.stdout) as CompressReport
      return { ms: child.wallMs, maxRssBytes: report.peakRssBytes }
    } catch {
      return {
        ms: Number.NaN,
        maxRssBytes: Number.NaN,
        error: `preencode compress exited ${child.code ?? child.signal}: ${child.stderr.slice(-2000)}`,
      }
    }
  }
  const ways = [
    { label: '`preencode compress`', run: cli },
    { label: 'compressDirectory in Node', run: library },
  ] as const

  const idle = await library(null)
  const rows: string[][] = [
    ['idle (import only)', '', '', '', '', idle.error ? 'failed' : fmtBytes(idle.maxRssBytes), '—'],
  ]
  const rss = new Map<string, number[]>(ways.map((w) => [w.label, []]))
  const scale = ctx.quick ? 2 : MEMORY_SCALE
  for (const copies of [1, scale]) {
    for (const way of ways) {
      // A fresh copy per run: a run leaves variants and a manifest that the next would reuse.
      const site = join(work, `site-${copies}x`)
      for (let i = 0; i < copies; i++) await cp(source, join(site, `copy${i}`), { recursive: true })
      const files = await listFiles(site)
      const bytes = [...files.values()].reduce((a, b) => a + b, 0)
      ctx.log(`scale: ${way.label} on the ${copies}x site (${fmtBytes(bytes)})…`)
      const outcome = await way.run(site)
      await rm(site, { recursive: true, force: true })
      if (outcome.error) part.notes.push(`${way.label} on the ${copies}x site failed: ${firstLine(outcome.error)}`)
      else ctx.log(`scale: ${copies}x: ${fmtMs(outcome.ms)}, peak RSS ${fmtBytes(outcome.maxRssBytes)}`)
      rss.get(way.label)!.push(outcome.error ? Number.NaN : outcome.maxRssBytes)
      rows.push(
        outcome.error
          ? [`${copies}x`, way.label, String(files.size), fmtBytes(bytes), 'failed', '', '']
          : [
              `${copies}x`,
              way.label,
              String(files.size),
              fmtBytes(bytes),
              fmtMs(outcome.ms),
              fmtBytes(outcome.maxRssBytes),
              idle.error ? 'n/a' : fmtBytes(outcome.maxRssBytes - idle.maxRssBytes),
            ],
      )
    }
  }
  const growth = (label: string): number => ratio(rss.get(label)![1]!, rss.get(label)![0]!)
  for (const way of ways) rows.push([`${scale}x / 1x`, way.label, '', '', '', fmtRatio(growth(way.label)), ''])
  part.tables.push({
    title: 'Peak memory against site size (cache off, gzip + brotli + zstd, one process per run)',
    columns: ['site', 'run', 'files', 'bytes', 'time', 'peak RSS', 'over idle'],
    rows,
    notes: [
      `the ${scale}x site is the plain build copied ${scale} times into sub-folders; the cache is off, so every copy is compressed`,
      "`preencode compress`: the peak of the process that compresses (its report's `peakRssBytes`); on glibc the same process re-imaged once (execve) with MALLOC_MMAP_THRESHOLD_=8388608 (docs/performance.md#peak-memory)",
      "compressDirectory in Node: the library in a plain Node process, as the Vite plugin runs inside Vite, with glibc's default (dynamic) mmap threshold",
      '"idle" is a child that only imports @preencode/core; "over idle" is what compressing added',
    ],
  })
  const target = growth(ways[0].label)
  part.targets.push({
    part: 'scale',
    target: memoryTarget(scale),
    measured: `${fmtRatio(target)} (compressDirectory in Node: ${fmtRatio(growth(ways[1].label))})`,
    pass: Number.isFinite(target) ? target <= MEMORY_GROWTH_LIMIT : undefined,
  })
}
