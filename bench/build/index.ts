// Build part: the same Vite app (bench/app: three, echarts, monaco-editor) built plainly, with
// preencode() and with vite-plugin-compression2, each build in a fresh child process; then
// `preencode compress` on the plain output (cold, against the floor measured in the same run);
// then two generated apps (apps/: one whose largest chunk dominates, one shaped like Storybook's
// output), cold, and one table of every app against issue 37's targets. Its sub-measurements
// live in apps/ and floor/ below this folder; the bytes comparison in bytes.ts. Throughput on a
// large site and peak memory are the scale part (bench/scale).
import { mkdir } from 'node:fs/promises'
import { availableParallelism, cpus } from 'node:os'
import { join } from 'node:path'
import { appEntries, type BuildOutcome, type BuildTool, PEER_LEVELS, runAppBuild } from '../lib/app-build/index.ts'
import type { BenchContext } from '../lib/context.ts'
import { importBuilt } from '../lib/packages.ts'
import { APP_ROOT } from '../lib/paths.ts'
import { emptyPart, type PartResult, type Table } from '../lib/report.ts'
import { firstLine, fmtBytes, fmtMs, fmtRatio, listFiles, median, ratio } from '../lib/util.ts'
import { type BenchApp, generatedApps } from './apps/index.ts'
import { type AppSummary, measureApp } from './apps/measure.ts'
import { appsTable } from './apps/summary.ts'
import { compareBytes } from './bytes.ts'
import { cliCold, floorMsOf, reportFloor } from './floor/index.ts'
import { measureGzipMax } from './gzip-max.ts'

type ConfigName = 'baseline' | 'preencode cold' | 'preencode warm' | 'peer'

interface Run extends BuildOutcome {
  config: ConfigName
}

export async function runBuild(ctx: BenchContext): Promise<PartResult> {
  const part = emptyPart('build', 'Build: preencode vs vite-plugin-compression2')
  part.description = [
    'bench/app is a Vite 8 app with three entries (Monaco editor with its language workers, the full ECharts build,',
    'three.js with add-ons): about 16 MB of JS/CSS in ~100 files. It is built plainly (baseline), with `preencode()`',
    'and with `vite-plugin-compression2`, each build in a fresh child process, repetitions interleaved. "Added time" is',
    "a configuration's median build time minus the baseline's median. Bytes are compared over the files both tools compressed.",
    'Two generated apps are measured the same way, cold (see "Per app"): one whose largest chunk is most of the site, and one',
    "shaped like Storybook's output (many small static files beside a few chunks).",
  ].join(' ')
  const plugin = await importBuilt('@preencode/vite', ['preencode'])
  const preencodeWhy = 'why' in plugin ? plugin.why : undefined
  const core = await importBuilt('@preencode/core', ['compress'])
  if (preencodeWhy) part.notes.push(`preencode builds skipped: ${preencodeWhy}`)

  const work = join(ctx.tmp, 'build')
  await mkdir(work, { recursive: true })
  const entries = appEntries(ctx, APP_ROOT)
  const reps = ctx.quick ? 1 : ctx.reps
  const outDir = (tool: BuildTool) => join(work, `dist-${tool}`)
  const runs: Run[] = []
  const build = async (config: ConfigName, tool: BuildTool, cacheDir?: string): Promise<void> => {
    ctx.log(`build: ${config}…`)
    const outcome = await runAppBuild({
      tool,
      appRoot: APP_ROOT,
      outDir: outDir(tool),
      cacheDir,
      entries,
      resultFile: join(work, 'result.json'),
    })
    if (outcome.error) ctx.log(`build: ${config} failed: ${firstLine(outcome.error)}`)
    else ctx.log(`build: ${config}: ${fmtMs(outcome.buildMs)}, peak RSS ${fmtBytes(outcome.maxRssBytes)}`)
    runs.push({ ...outcome, config })
  }

  // Interleaved repetitions, so that a burst of load from elsewhere hits every configuration.
  const cliMs: number[] = []
  const cliCpuMs: number[] = []
  for (let rep = 0; rep < reps; rep++) {
    await build('baseline', 'baseline')
    // The CLI on the plain output: the same files the plugin compresses, without Vite around it.
    if (!('why' in core) && runs.some((r) => r.config === 'baseline' && !r.error)) {
      const cli = await cliCold(ctx, outDir('baseline'), join(work, 'cli'), rep)
      if (cli.error) part.notes.push(`cli cold failed: ${cli.error}`)
      else {
        cliMs.push(cli.ms)
        cliCpuMs.push(cli.cpuMs)
      }
    }
    if (!preencodeWhy) {
      const cacheDir = join(work, `cache-${rep}`)
      await build('preencode cold', 'preencode', cacheDir)
      await build('preencode warm', 'preencode', cacheDir)
    }
    // The peer has no cache: every build of it is a cold one, so one a repetition.
    await build('peer', 'peer')
  }

  const stats = (config: ConfigName) => {
    const ok = runs.filter((r) => r.config === config && !r.error)
    const ms = ok.map((r) => r.buildMs)
    return {
      n: ok.length,
      ms: median(ms),
      min: Math.min(...ms),
      max: Math.max(...ms),
      rss: median(ok.map((r) => r.maxRssBytes)),
      failed: runs.some((r) => r.config === config && r.error),
    }
  }
  const base = stats('baseline')
  const added = (config: ConfigName) => stats(config).ms - base.ms
  const cpuOf = (config: ConfigName) =>
    median(runs.filter((r) => r.config === config && !r.error && r.cpuMs !== undefined).map((r) => r.cpuMs ?? 0))
  const addedCpu = cpuOf('preencode cold') - cpuOf('baseline')
  const configs: ConfigName[] = ['baseline', 'preencode cold', 'preencode warm', 'peer']
  const timeTable: Table = {
    title: `Build time and peak memory (median of ${reps} run${reps > 1 ? 's' : ''} each, one child process per build)`,
    columns: ['configuration', 'runs', 'build time', 'range', 'added over baseline', 'peak RSS', 'RSS over baseline'],
    rows: configs.map((config) => {
      const s = stats(config)
      if (config.startsWith('preencode') && preencodeWhy) return [config, '0', 'skipped', '', '', '', '']
      if (s.n === 0) return [config, '0', s.failed ? 'failed' : 'not run', '', '', '', '']
      return [
        config,
        String(s.n),
        fmtMs(s.ms),
        `${fmtMs(s.min)}–${fmtMs(s.max)}`,
        config === 'baseline' ? '—' : fmtMs(added(config)),
        fmtBytes(s.rss),
        config === 'baseline' ? '—' : fmtBytes(s.rss - base.rss),
      ]
    }),
    notes: [
      `app: bench/app (${Object.keys(entries).join(', ')} entr${Object.keys(entries).length > 1 ? 'ies' : 'y'}), Vite 8 with reportCompressedSize off in every configuration`,
      'preencode: formats gzip, brotli, zstd at its defaults (gzip 9, brotli 11, zstd 19); cold = empty cache dir, warm = the second build with the same cache dir',
      `vite-plugin-compression2 2.5.3: gzip ${PEER_LEVELS.gzip}, brotli ${PEER_LEVELS.brotli}, zstd ${PEER_LEVELS.zstd} (its default zstd level, the same as preencode's; it has no cache, so its one configuration is both its cold and its warm build)`,
      `concurrency as each tool ships it: vite-plugin-compression2 runs os.cpus().length − 1 compressions at once (${cpus().length === 1 ? 10 : Math.max(1, cpus().length - 1)} here; 10 on one core), preencode a pool of os.availableParallelism() (${availableParallelism()} here)`,
      'build time is measured inside the child from before `import("vite")` to the end of `build()`; peak RSS is the child\'s `process.resourceUsage().maxRSS`',
    ],
  }
  part.tables.push(timeTable)
  for (const r of runs.filter((x) => x.error)) part.notes.push(`${r.config} failed: ${firstLine(r.error)}`)

  // Ratios and targets.
  if (!preencodeWhy) {
    const coldRatio = ratio(added('preencode cold'), added('peer'))
    const warmRatio = ratio(added('preencode warm'), added('peer'))
    const warmOverCold = ratio(added('preencode warm'), added('preencode cold'))
    part.tables.push({
      title: 'Build ratios',
      columns: ['ratio', 'value'],
      rows: [
        ['preencode / peer, added time cold', fmtRatio(coldRatio)],
        ['preencode / peer, added time warm', fmtRatio(warmRatio)],
        ['preencode warm / preencode cold, added time', fmtRatio(warmOverCold)],
        ['preencode / peer, peak RSS cold', fmtRatio(ratio(stats('preencode cold').rss, stats('peer').rss))],
      ],
      notes: [
        'an added time smaller than the spread of the baseline runs (see "range"), or negative, is below what this run can resolve',
      ],
    })
    part.targets.push(
      {
        part: 'build',
        target: 'bench/app: cold added time ≤ 0.6× peer',
        measured: fmtRatio(coldRatio),
        pass: Number.isFinite(coldRatio) ? coldRatio <= 0.6 : undefined,
      },
      {
        part: 'build',
        target: 'warm added time ≤ 0.05× cold',
        measured: fmtRatio(warmOverCold),
        pass: Number.isFinite(warmOverCold) ? warmOverCold <= 0.05 : undefined,
      },
    )
  } else {
    part.targets.push(
      { part: 'build', target: 'bench/app: cold added time ≤ 0.6× peer', why: preencodeWhy },
      { part: 'build', target: 'warm added time ≤ 0.05× cold', why: preencodeWhy },
    )
  }

  // Bytes per format, over the files both tools compressed.
  const listing = async (tool: BuildTool) =>
    runs.some((r) => r.config.startsWith(tool) && !r.error) ? listFiles(outDir(tool)) : undefined
  const bytes = await compareBytes(part, {
    peerFiles: await listing('peer'),
    preFiles: preencodeWhy ? undefined : await listing('preencode'),
    peerDir: outDir('peer'),
    preDir: outDir('preencode'),
    preencodeWhy,
  })

  // gzip 'max' against zlib 9 on the plain output (issue 28).
  if (!('why' in core) && runs.some((r) => r.config === 'baseline' && !r.error))
    await measureGzipMax(part, core.mod, outDir('baseline'))

  // The floor of a cold compress on this machine, measured now, and the plugin against the CLI.
  const benchApp: BenchApp = {
    name: 'bench/app',
    about: 'Monaco editor with its language workers, the full ECharts build, three.js with add-ons (the tables above)',
    root: APP_ROOT,
    entries,
  }
  const summaries: AppSummary[] = []
  if (!preencodeWhy && cliMs.length > 0) {
    const floor = await reportFloor(ctx, part, outDir('baseline'), {
      cliMs,
      cliCpuMs,
      pluginAddedMs: added('preencode cold'),
      pluginAddedCpuMs: addedCpu,
    })
    summaries.push({
      app: benchApp,
      floor,
      floorMs: floorMsOf(floor),
      cliMs: median(cliMs),
      cliCpuMs: median(cliCpuMs),
      addedCpuPreencode: addedCpu,
      addedPreencode: added('preencode cold'),
      addedPeer: added('peer'),
      bytes,
      errors: [],
    })
  } else
    part.targets.push({
      part: 'build',
      target: 'cold compress against the floor; plugin-added against the CLI',
      why: preencodeWhy ?? 'the CLI runs failed',
    })
  // The apps whose largest file decides a cold build (issue 37), and every app against the targets.
  if (!preencodeWhy)
    for (const app of await generatedApps(join(work, 'apps')))
      summaries.push(await measureApp(ctx, app, join(work, 'apps', `run-${app.name.replace(/\W+/g, '-')}`)))
  if (summaries.length > 0) {
    const { table, targets } = appsTable(summaries)
    part.tables.push(table)
    part.targets.push(...targets)
  }
  ctx.shared.benchAppDist = runs.some((r) => r.config === 'baseline' && !r.error) ? outDir('baseline') : undefined
  if (runs.some((r) => r.config === 'preencode warm' && !r.error))
    ctx.shared.preencodeCache = join(work, `cache-${reps - 1}`)
  return part
}
