// Delta window part (RFC 9842, `deltas.versions`): how many deployed versions should a new build
// write deltas against? bench/app is built plainly K+1 times, one small source edit between
// builds (the edits rotate over the sources, so each build moves a different hash cascade). For
// the newest build, a visitor holding the version k deploys back (k = 1..K) downloads the
// smallest delta of every changed chunk that has one (brotli 11 for the others) instead of brotli
// 11 for all of them; writing the deltas against that version costs files, stored bytes and time.
// Keeping N versions costs the sum over k <= N; the default N is the rule's answer on this table.
import { appendFile, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { buildApp, copyApp } from '../lib/app-build/index.ts'
import type { BenchContext } from '../lib/context.ts'
import { importBuilt } from '../lib/packages.ts'
import { emptyPart, type PartResult } from '../lib/report.ts'
import { firstLine, fmtBytes, fmtInt, fmtMs } from '../lib/util.ts'

/** Successive builds compared with the newest (the issue asks for K >= 6). */
const K = 6
/**
 * The rule: N is the largest window in which every version's visitors download at most WORTH_IT
 * of brotli (past it, the extra files serve visitors who gain little), the delta files stored
 * stay under STORAGE_CAP of the hashed assets' brotli bytes, and writing them takes no longer
 * than compressing the files the edit changed: deltas at most double a build's compression work.
 */
const WORTH_IT = 0.25
const STORAGE_CAP = 0.05

type Core = typeof import('@preencode/core') & Pick<typeof import('@preencode/core/internal'), 'folderVersionSource'>

interface Generation {
  k: number
  /** Changed chunks of the newest build against version k (paths not in that build). */
  changed: number
  withDelta: number
  brotliBytes: number
  /** What the visitor downloads: the smallest delta where there is one, else brotli. */
  visitorBytes: number
  deltaFiles: number
  deltaBytesStored: number
  /** Bytes of the previous versions read as dictionaries (fetched from the target by a deploy). */
  previousRead: number
  ms: number
}

export async function runDeltaVersions(ctx: BenchContext): Promise<PartResult> {
  const part = emptyPart('versions', 'Delta window: against how many deployed versions to write deltas')
  part.description = [
    `bench/app is built plainly ${K + 1} times with one small source edit between builds (rotating over the sources).`,
    `The newest build is compressed (brotli 11, zstd 19) and, for each k = 1..${K}, \`writeDeltas\` writes dcb/dcz`,
    'deltas against build v-k alone (its folder as the only previous version, cold delta cache): what a visitor who',
    'still holds v-k downloads, the delta files and bytes that adds to the deploy, and the time. Keeping N versions',
    'costs the sum over k ≤ N.',
  ].join(' ')
  const imported = await importBuilt('@preencode/core', ['writeDeltas', 'versionedAsset', 'compress'])
  if ('why' in imported) return { ...part, skipped: imported.why }
  const internal = await importBuilt('@preencode/core/internal', ['folderVersionSource'])
  if ('why' in internal) return { ...part, skipped: internal.why }
  const core: Core = { ...imported.mod, folderVersionSource: internal.mod.folderVersionSource }
  if (!core.supportsDictionaryCompression())
    return { ...part, skipped: `Node ${process.versions.node} has no brotli dictionary support (needs 24.15)` }
  try {
    await measure(ctx, core, join(ctx.tmp, 'delta-versions'), part)
  } catch (error) {
    part.notes.push(`measurement failed: ${firstLine(error)}`)
  }
  return part
}

async function measure(ctx: BenchContext, core: Core, dir: string, part: PartResult): Promise<void> {
  const app = join(dir, 'app')
  await copyApp(app)
  const sources = ctx.quick
    ? ['src/scene.ts']
    : ['src/chart-render.ts', 'src/scene.ts', 'src/charts.ts', 'src/editor.ts']
  const outs: string[] = []
  for (let v = 0; v <= K; v++) {
    if (v > 0)
      await appendFile(join(app, sources[(v - 1) % sources.length]!), `\nconsole.info('bench: version ${v}')\n`)
    ctx.log(`versions: building bench/app v${v} of ${K}`)
    outs.push(join(dir, `v${v}`))
    await buildApp(ctx, app, outs[v]!, join(dir, `v${v}.json`))
  }
  const newest = outs[K]!
  // The yardstick for the deltas' time: what a build pays to compress the files an edit changed.
  // The cache is warmed by v-2 (the edit between them moved a whole hash cascade), so compressing
  // the newest build encodes exactly its changed files, with brotli 11, zstd 19 and gzip 9.
  const warm = join(dir, 'cache')
  await core.compress(outs[K - 2]!, { cache: warm })
  const compressStarted = performance.now()
  const { manifest, report: compressed } = await core.compress(newest, { cache: warm })
  const compressMs = performance.now() - compressStarted
  const encoded = compressed.cache.misses
  const siteBrotli = manifest.files
    .filter((f) => core.versionedAsset(f.path) !== undefined)
    .reduce((n, f) => n + (f.variants.find((v) => v.encoding === 'br')?.size ?? f.size), 0)
  const generations: Generation[] = []
  for (let k = 1; k <= K; k++) {
    const folder = outs[K - k]!
    const report = (
      await core.writeDeltas(newest, manifest, core.resolveDeltaOptions({ versions: 1, remember: false }), {
        cacheDir: false,
        // A plain build folder: every file is generation 0, the only previous version.
        source: core.folderVersionSource(folder),
      })
    ).report
    const written = await core.readManifest(newest)
    const held = new Set(await filesOf(folder))
    let changed = 0
    let withDelta = 0
    let brotliBytes = 0
    let visitorBytes = 0
    let deltaFiles = 0
    let deltaBytesStored = 0
    const dictionaries = new Set<string>()
    for (const file of written.files) {
      if (file.useAsDictionary === undefined || held.has(file.path)) continue
      const brotli = file.variants.find((v) => v.encoding === 'br')?.size ?? file.size
      const smallest = Math.min(brotli, ...(file.deltas ?? []).map((d) => d.size))
      changed++
      if (file.deltas?.length) withDelta++
      brotliBytes += brotli
      visitorBytes += smallest
      deltaFiles += file.deltas?.length ?? 0
      deltaBytesStored += (file.deltas ?? []).reduce((n, d) => n + d.size, 0)
      for (const delta of file.deltas ?? []) dictionaries.add(delta.dictionaryPath)
    }
    let previousRead = 0
    for (const path of dictionaries) previousRead += (await stat(join(folder, path))).size
    generations.push({
      k,
      changed,
      withDelta,
      brotliBytes,
      visitorBytes,
      deltaFiles,
      deltaBytesStored,
      previousRead,
      ms: report.durationMs,
    })
    ctx.log(
      `versions: v-${k}: ${withDelta}/${changed} chunks with deltas, ${fmtBytes(visitorBytes)} vs ${fmtBytes(brotliBytes)} brotli`,
    )
  }
  const pct = (a: number, b: number): string => `${((a / Math.max(1, b)) * 100).toFixed(2)}%`
  part.tables.push({
    title: `A visitor holding version v-k of bench/app, after ${K} builds with one small edit each`,
    columns: [
      'k',
      'changed chunks',
      'with a delta',
      'brotli 11',
      'visitor downloads',
      'of brotli',
      'delta files',
      'delta bytes stored',
      'previous versions read',
      'writeDeltas time',
    ],
    rows: generations.map((g) => [
      String(g.k),
      fmtInt(g.changed),
      fmtInt(g.withDelta),
      fmtBytes(g.brotliBytes),
      fmtBytes(g.visitorBytes),
      pct(g.visitorBytes, g.brotliBytes),
      fmtInt(g.deltaFiles),
      fmtBytes(g.deltaBytesStored),
      fmtBytes(g.previousRead),
      fmtMs(g.ms),
    ]),
    notes: [
      'visitor downloads: the smallest of dcb/dcz where a delta exists, brotli 11 for changed chunks without one',
    ],
  })
  let chosen = 0
  const rows: string[][] = []
  let files = 0
  let stored = 0
  let read = 0
  let ms = 0
  for (const g of generations) {
    files += g.deltaFiles
    stored += g.deltaBytesStored
    read += g.previousRead
    ms += g.ms
    const worth =
      g.visitorBytes / Math.max(1, g.brotliBytes) <= WORTH_IT &&
      stored <= STORAGE_CAP * Math.max(1, siteBrotli) &&
      ms <= compressMs
    if (worth && chosen === g.k - 1) chosen = g.k
    rows.push([
      String(g.k),
      fmtInt(files),
      fmtBytes(stored),
      pct(stored, siteBrotli),
      fmtBytes(read),
      fmtMs(ms),
      pct(ms, compressMs),
      worth ? 'yes' : 'no',
    ])
  }
  part.tables.push({
    title: 'The cost of keeping N versions (sums over k ≤ N)',
    columns: [
      'N',
      'delta files',
      'delta bytes stored',
      "of the hashed assets' brotli",
      'previous versions read',
      'writeDeltas time',
      'of compressing the changed files',
      'within the rule',
    ],
    rows,
    notes: [
      `rule: the largest N such that for every k ≤ N a visitor of v-k downloads ≤ ${WORTH_IT * 100}% of brotli, the deltas stored for N versions stay ≤ ${STORAGE_CAP * 100}% of the hashed assets' brotli bytes (${fmtBytes(siteBrotli)}), and writing them takes no longer than compressing the files an edit changed (${fmtInt(encoded)} variants encoded after the v-2 -> v edit: ${fmtMs(compressMs)} here, in the same run); N = ${chosen} (default ${core.DEFAULT_DELTA_OPTIONS.versions})`,
      'times are measured with a cold delta cache on a shared machine: compare them with each other, not across runs',
    ],
  })
  part.targets.push({
    part: 'versions',
    target: `default deltas.versions (${core.DEFAULT_DELTA_OPTIONS.versions}) = the rule's N`,
    measured: `N = ${chosen}`,
    pass: generations.length === K ? core.DEFAULT_DELTA_OPTIONS.versions === chosen : undefined,
  })
}

/** Every file of a build folder, as POSIX paths relative to it. */
async function filesOf(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => e.isFile())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(folder.length + 1)
        .split('\\')
        .join('/'),
    )
}
