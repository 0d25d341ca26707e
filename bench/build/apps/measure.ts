// One generated app measured the way the build part measures bench/app, cold only (the time of
// a first build is what issue 37 is about): plain, `preencode compress` on the plain output,
// with preencode() and with the peer, repetitions interleaved; then the floor of its cold
// compress and its bytes against the peer's.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { type BuildTool, runAppBuild } from '../../lib/app-build/index.ts'
import type { BenchContext } from '../../lib/context.ts'
import { firstLine, fmtMs, listFiles, median } from '../../lib/util.ts'
import { bytesPerFormat, type FormatBytes } from '../bytes.ts'
import { cliCold, floorMsOf, measureFloor } from '../floor/index.ts'
import type { FloorMeasure } from '../floor/spec.ts'
import type { BenchApp } from './index.ts'

/** What the per-app table shows for one app. */
export interface AppSummary {
  app: BenchApp
  floor?: FloorMeasure
  floorMs: number
  /** Median wall time of `preencode compress`, cold. */
  cliMs: number
  /** Median CPU time (all threads) of `preencode compress`, cold. */
  cliCpuMs: number
  /** Median CPU time of a cold build with preencode() minus the plain build's. */
  addedCpuPreencode: number
  /** Median build time of each configuration minus the plain build's median, cold. */
  addedPreencode: number
  addedPeer: number
  bytes?: FormatBytes[]
  errors: string[]
}

/** Builds and measures `app` in `work`; failures end up in `errors`, never as a throw. */
export async function measureApp(ctx: BenchContext, app: BenchApp, work: string): Promise<AppSummary> {
  const reps = ctx.quick ? 1 : ctx.reps
  const outDir = (tool: BuildTool) => join(work, `dist-${tool}`)
  const times: Record<BuildTool, number[]> = { baseline: [], preencode: [], peer: [] }
  const cpu: Record<BuildTool, number[]> = { baseline: [], preencode: [], peer: [] }
  const cliMs: number[] = []
  const cliCpuMs: number[] = []
  const errors: string[] = []
  const build = async (tool: BuildTool, cacheDir?: string): Promise<boolean> => {
    ctx.log(`build: ${app.name}: ${tool}${tool === 'baseline' ? '' : ' cold'}…`)
    const outcome = await runAppBuild({
      tool,
      appRoot: app.root,
      outDir: outDir(tool),
      cacheDir,
      entries: app.entries,
      resultFile: join(work, 'result.json'),
    })
    if (outcome.error) {
      errors.push(`${app.name}: ${tool} build failed: ${firstLine(outcome.error)}`)
      return false
    }
    ctx.log(`build: ${app.name}: ${tool}: ${fmtMs(outcome.buildMs)}`)
    times[tool].push(outcome.buildMs)
    if (outcome.cpuMs !== undefined) cpu[tool].push(outcome.cpuMs)
    return true
  }
  for (let rep = 0; rep < reps; rep++) {
    if (await build('baseline')) {
      const cli = await cliCold(ctx, outDir('baseline'), join(work, 'cli'), rep)
      if (cli.error) errors.push(`${app.name}: cli cold failed: ${cli.error}`)
      else {
        cliMs.push(cli.ms)
        cliCpuMs.push(cli.cpuMs)
      }
    }
    const cacheDir = join(work, `cache-${rep}`)
    await rm(cacheDir, { recursive: true, force: true })
    await build('preencode', cacheDir)
    await build('peer')
  }
  const base = median(times.baseline)
  const summary: AppSummary = {
    app,
    floorMs: Number.NaN,
    cliMs: median(cliMs),
    cliCpuMs: median(cliCpuMs),
    addedCpuPreencode: median(cpu.preencode) - median(cpu.baseline),
    addedPreencode: median(times.preencode) - base,
    addedPeer: median(times.peer) - base,
    errors,
  }
  if (times.baseline.length > 0) {
    const { floor, error } = await measureFloor(ctx, outDir('baseline'))
    if (error) errors.push(`${app.name}: ${error}`)
    summary.floor = floor
    summary.floorMs = floorMsOf(floor)
  }
  if (times.preencode.length > 0 && times.peer.length > 0)
    summary.bytes = await bytesPerFormat(
      await listFiles(outDir('peer')),
      await listFiles(outDir('preencode')),
      outDir('peer'),
      outDir('preencode'),
    )
  return summary
}
