// Where a cold compress stands against the physical floor of this machine, and what the Vite
// plugin adds over the CLI on the same output. The floor of a cold compress is the longer of
// (a) the longest single encode, which cannot be split, and (b) the CPU time of all encodes
// spread over the cores; both are measured in the same run (child.ts), on the same files.
import { cp, mkdir, readFile, rm } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import type { BenchContext } from '../../lib/context.ts'
import { CLI_BIN } from '../../lib/paths.ts'
import type { PartResult } from '../../lib/report.ts'
import { firstLine, fmtBytes, fmtMs, fmtRatio, median, ratio, runChild } from '../../lib/util.ts'
import type { FloorMeasure } from './spec.ts'

export const FLOOR_TARGET = 1.15
const PLUGIN_OVER_CLI_TARGET = 1.1

const CPU_PRELOAD = join(import.meta.dirname, 'cpu-preload.ts')

/** One cold run of the CLI: its wall time and its CPU time (all threads; NaN if not recorded). */
export interface ColdRun {
  ms: number
  cpuMs: number
  error?: string
}

/** One cold `preencode compress` (empty cache directory) of a fresh copy of `site`: its wall and CPU time. */
export async function cliCold(ctx: BenchContext, site: string, work: string, rep: number): Promise<ColdRun> {
  const copy = join(work, `cli-site-${rep}`)
  const cache = join(work, `cli-cache-${rep}`)
  const cpuFile = join(work, `cli-cpu-${rep}.json`)
  await rm(copy, { recursive: true, force: true })
  await rm(cache, { recursive: true, force: true })
  await rm(cpuFile, { force: true })
  await mkdir(work, { recursive: true })
  await cp(site, copy, { recursive: true })
  ctx.log('build: cli cold…')
  const args = ['--import', CPU_PRELOAD, CLI_BIN, 'compress', copy, '--cache-dir', cache, '--quiet']
  const child = await runChild(process.execPath, args, {
    timeoutMs: 15 * 60_000,
    env: { CI: 'true', PREENCODE_BENCH_CPU_FILE: cpuFile },
  })
  await rm(copy, { recursive: true, force: true })
  if (child.code !== 0)
    return {
      ms: Number.NaN,
      cpuMs: Number.NaN,
      error: `preencode compress exited ${child.code ?? child.signal}: ${firstLine(child.stderr)}`,
    }
  const cpuMs = await readFile(cpuFile, 'utf8')
    .then((text) => (JSON.parse(text) as { cpuMs: number }).cpuMs)
    .catch(() => Number.NaN)
  ctx.log(`build: cli cold: ${fmtMs(child.wallMs)} (CPU ${fmtMs(cpuMs)})`)
  return { ms: child.wallMs, cpuMs }
}

/** Every encode of `site` alone, one after the other, in a child process (child.ts). */
export async function measureFloor(ctx: BenchContext, site: string): Promise<{ floor?: FloorMeasure; error?: string }> {
  ctx.log('build: floor (every encode alone, one after the other)…')
  const child = await runChild(process.execPath, [join(import.meta.dirname, 'child.ts'), site], {
    timeoutMs: 30 * 60_000,
  })
  try {
    return { floor: JSON.parse(child.stdout) as FloorMeasure }
  } catch {
    return { error: `floor not measured: child exited ${child.code ?? child.signal}: ${firstLine(child.stderr)}` }
  }
}

/** The floor of a cold compress: the longest single encode, or all encodes' CPU over the cores. */
export function floorMsOf(floor: FloorMeasure | undefined): number {
  return floor ? Math.max(floor.longest.ms, floor.cpuMs / availableParallelism()) : Number.NaN
}

/**
 * Adds the floor table and the two targets (cold / floor, plugin-added / CLI); returns the
 * floor measured, for the per-app table.
 */
export async function reportFloor(
  ctx: BenchContext,
  part: PartResult,
  site: string,
  runs: { cliMs: number[]; cliCpuMs: number[]; pluginAddedMs: number; pluginAddedCpuMs: number },
): Promise<FloorMeasure | undefined> {
  const { cliMs, pluginAddedMs } = runs
  const { floor, error } = await measureFloor(ctx, site)
  if (error) part.notes.push(error)
  const cores = availableParallelism()
  const cli = median(cliMs)
  const spread = floor ? floor.cpuMs / cores : Number.NaN
  const floorMs = floorMsOf(floor)
  const coldOverFloor = ratio(cli, floorMs)
  const pluginOverCli = ratio(pluginAddedMs, cli)
  const cliCpu = median(runs.cliCpuMs)
  part.tables.push({
    title: 'Cold compress against the floor, and the plugin against the CLI (same files)',
    columns: ['measure', 'value'],
    rows: [
      ['encodes (files × formats)', floor ? `${floor.encodes} (${fmtBytes(floor.bytes)} of originals)` : 'n/a'],
      [
        'longest single encode, alone',
        floor ? `${fmtMs(floor.longest.ms)} (${floor.longest.format} ${floor.longest.path})` : 'n/a',
      ],
      [`CPU of all encodes / ${cores} cores`, floor ? `${fmtMs(floor.cpuMs)} / ${cores} = ${fmtMs(spread)}` : 'n/a'],
      ['floor (the longer of the two)', fmtMs(floorMs)],
      [`preencode compress, cold (median of ${cliMs.length})`, fmtMs(cli)],
      ['cold / floor', fmtRatio(coldOverFloor)],
      ['plugin-added build time, cold (median)', fmtMs(pluginAddedMs)],
      ['plugin-added / CLI', fmtRatio(pluginOverCli)],
      [
        'CPU time: preencode compress, cold / all encodes alone',
        floor ? `${fmtMs(cliCpu)} / ${fmtMs(floor.cpuMs)} = ${fmtRatio(ratio(cliCpu, floor.cpuMs))}` : 'n/a',
      ],
      [
        'CPU time: plugin-added / CLI',
        `${fmtMs(runs.pluginAddedCpuMs)} / ${fmtMs(cliCpu)} = ${fmtRatio(ratio(runs.pluginAddedCpuMs, cliCpu))}`,
      ],
    ],
    notes: [
      "the floor child runs every encode preencode runs (compressible files ≥ 1 KiB, gzip 9 + brotli 11 + zstd 19) one after the other in one process: each one's wall time is then its own, and their CPU time is the work to spread over the cores",
      'cold = `preencode compress` with an empty cache directory on a fresh copy of the plain build output, in its own process; the plugin builds write the same files',
      'on a machine shared with other work the cold and plugin times grow while the floor (CPU time) does not: compare the load column of this part',
      'CPU time (user + system, every thread of the process) hardly grows with load: CPU of the run over CPU of its encodes alone is what the run adds to the encodes (reads, hashes, cache, writes, manifest, start-up); when it is near 1 and the wall ratio is not, the difference is time the cores were not encoding (or were taken by other work)',
    ],
  })
  part.targets.push(
    {
      part: 'build',
      target: `bench/app: cold compress ≤ ${FLOOR_TARGET}× the floor`,
      measured: fmtRatio(coldOverFloor),
      pass: Number.isFinite(coldOverFloor) ? coldOverFloor <= FLOOR_TARGET : undefined,
    },
    {
      part: 'build',
      target: `plugin-added time ≤ ${PLUGIN_OVER_CLI_TARGET}× the CLI's on the same output`,
      measured: fmtRatio(pluginOverCli),
      pass: Number.isFinite(pluginOverCli) ? pluginOverCli <= PLUGIN_OVER_CLI_TARGET : undefined,
    },
  )
  return floor
}
