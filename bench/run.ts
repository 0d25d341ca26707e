// `pnpm bench` — runs the benchmark parts, prints each part's tables and ratios, and writes
// docs/benchmarks.md. Flags: --only build,scale,serve,deploy (default all), --quick (smoke run with
// small inputs), --reps N (build repetitions, default 2), --keep (keep the scratch directory),
// --out FILE (where the Markdown goes, with the charts beside it; default docs/benchmarks.md, `-` for none).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, cpus, loadavg, release, tmpdir, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { runBuild } from './build/index.ts'
import { runDeploy } from './deploy/index.ts'
import { runDictionary } from './dictionary/index.ts'
import { runHistory } from './history/index.ts'
import type { BenchContext } from './lib/context.ts'
import { type KeptPart, keptPart } from './lib/kept-parts.ts'
import { type MachineInfo, renderMarkdown } from './lib/markdown.ts'
import { REPO_ROOT } from './lib/paths.ts'
import { type PartResult, renderPartText } from './lib/report.ts'
import { firstLine, fmtBytes } from './lib/util.ts'
import { runRuntimes } from './runtimes/index.ts'
import { runScale } from './scale/index.ts'
import { runServe } from './serve/index.ts'
import { runDeltaVersions } from './versions/index.ts'

const PARTS = {
  build: runBuild,
  scale: runScale,
  serve: runServe,
  deploy: runDeploy,
  dictionary: runDictionary,
  versions: runDeltaVersions,
  runtimes: runRuntimes,
  history: runHistory,
} as const
type PartName = keyof typeof PARTS
const TITLES: Record<PartName, string> = {
  build: 'Build: preencode vs vite-plugin-compression2',
  scale: 'Build at scale: a 20,000-file site, and peak memory against site size',
  serve: 'Serving: nginx and Apache, on-the-fly vs pre-compressed',
  deploy: 'Deploy to MinIO',
  dictionary: 'Dictionary transport (RFC 9842): updates and page navigations',
  versions: 'Delta window: against how many deployed versions to write deltas',
  runtimes: 'JavaScript runtimes: the preencode handler vs each runtime’s own static handler',
  history: "Deploy history: what a returning visitor downloads across real sites' releases",
}

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    reps: { type: 'string' },
    keep: { type: 'boolean', default: false },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
})

if (values.help) {
  console.log('usage: pnpm bench [-- --only build,scale,serve,deploy] [--quick] [--reps N] [--keep] [--out FILE|-]')
  process.exit(0)
}
const selected = (values.only ?? Object.keys(PARTS).join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
for (const name of selected) {
  if (!(name in PARTS)) {
    console.error(`[preencode] [bench] unknown part \`${name}\` in --only; accepted: ${Object.keys(PARTS).join(', ')}`)
    process.exit(2)
  }
}
const reps = values.reps === undefined ? 2 : Number(values.reps)
if (!Number.isInteger(reps) || reps < 1) {
  console.error(`[preencode] [bench] --reps is ${values.reps}; it must be a whole number >= 1`)
  process.exit(2)
}

const started = new Date()
const machine: MachineInfo = {
  cores: availableParallelism(),
  cpu: cpus()[0]?.model.trim() ?? 'unknown',
  memory: fmtBytes(totalmem()),
  kernel: release(),
  node: process.version,
  date: started.toISOString(),
  loadBefore: loadavg()
    .map((l) => l.toFixed(2))
    .join(', '),
  quick: values.quick,
  reps: values.quick ? 1 : reps,
}
const tmp = await mkdtemp(join(tmpdir(), 'preencode-bench-'))
const ctx: BenchContext = {
  quick: values.quick,
  reps,
  tmp,
  log: (message) =>
    process.stderr.write(`[bench ${((Date.now() - started.getTime()) / 1000).toFixed(0).padStart(4)}s] ${message}\n`),
  shared: {},
}
ctx.log(
  `${machine.cores} cores, node ${machine.node}, load ${machine.loadBefore}; parts: ${selected.join(', ')}${ctx.quick ? ' (quick)' : ''}`,
)

// The 1-minute load average, sampled through the run: the bench alone keeps about two cores
// busy, so a peak well above that means other work shared the machine and timings are noisy.
let peakLoad = loadavg()[0]!
let partLoad = peakLoad
const sampler = setInterval(() => {
  const now = loadavg()[0]!
  peakLoad = Math.max(peakLoad, now)
  partLoad = Math.max(partLoad, now)
}, 5000)
sampler.unref()

const results: PartResult[] = []
try {
  for (const name of Object.keys(PARTS) as PartName[]) {
    if (!selected.includes(name)) {
      results.push({
        name,
        title: TITLES[name],
        skipped: 'not selected in this run (--only)',
        tables: [],
        targets: [],
        notes: [],
      })
      continue
    }
    let result: PartResult
    partLoad = loadavg()[0]!
    try {
      result = await PARTS[name](ctx)
    } catch (error) {
      // A crash of one part is reported as such; the other parts still run.
      ctx.log(`${name} crashed: ${(error as Error).stack ?? error}`)
      result = {
        name,
        title: TITLES[name],
        skipped: `crashed: ${firstLine(error)}`,
        tables: [],
        targets: [],
        notes: [],
      }
    }
    result.loadPeak = Math.max(partLoad, loadavg()[0]!)
    results.push(result)
    console.log(`\n${renderPartText(result)}\n`)
  }
} finally {
  if (values.keep) ctx.log(`scratch directory kept: ${tmp}`)
  else await rm(tmp, { recursive: true, force: true })
}

clearInterval(sampler)
machine.loadAfter = loadavg()
  .map((l) => l.toFixed(2))
  .join(', ')
machine.loadPeak = Math.max(peakLoad, loadavg()[0]!)
if (machine.loadPeak > machine.cores * 2)
  ctx.log(
    `warning: the 1-minute load average reached ${machine.loadPeak.toFixed(1)} on ${machine.cores} cores: other work shared the machine, so the timings are noisy`,
  )
machine.durationS = Math.round((Date.now() - started.getTime()) / 1000)
const out = values.out ?? join(REPO_ROOT, 'docs', 'benchmarks.md')
if (out !== '-') {
  // Parts not selected keep what the page said of them (their date with them).
  const previous = await readFile(out, 'utf8').catch(() => '')
  const kept = new Map<string, KeptPart>()
  for (const name of Object.keys(PARTS) as PartName[]) {
    const earlier = selected.includes(name) ? undefined : keptPart(previous, name, TITLES[name])
    if (earlier) kept.set(name, earlier)
  }
  await writeFile(out, renderMarkdown(machine, results, kept))
  for (const figure of results.flatMap((r) => r.figures ?? []))
    await writeFile(join(dirname(out), figure.file), figure.svg)
  ctx.log(`wrote ${out} (${machine.durationS} s in all)`)
}
