// Deploy history part: real sites' successive npm releases, each compressed and deployed by the
// preencode CLI as a user would, and a visitor who returns after every deploy (see replay.ts for
// the byte accounting, deploys.ts for one deploy). Per site: bytes per return visit with
// preencode against brotli 11, gzip 9 and a CDN compressing on the fly at brotli 4; first-visit
// bytes; the build time preencode adds; and a chart of the bytes per deploy.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BenchContext } from '../lib/context.ts'
import { importBuilt } from '../lib/packages.ts'
import { emptyPart, type Figure, type PartResult, type Table } from '../lib/report.ts'
import { firstLine, fmtBytes, fmtMs, lowerMedian } from '../lib/util.ts'
import { type DeployBound, HistoryBound } from './bound.ts'
import { type DeployRecord, deployRelease, METHODS, type Method, type SiteRun } from './deploys.ts'
import { consecutiveReleases, publishedVersions, unpackedRelease } from './releases.ts'
import { replayVisitor, type VisitBytes } from './replay.ts'
import { type HistorySite, SITES } from './sites.ts'
import { renderLineChart } from './svg.ts'

/** Consecutive releases replayed per site (issue 37 asks for 10 or more); --quick: 4. */
const RELEASES = 10
const QUICK_RELEASES = 4
/** Issue 37: every app history's return visits at most this share of brotli 11's, dictionary fetches included. */
const APP_TARGET = 0.1

const LABELS: Record<Method, string> = {
  preencode: 'preencode (deltas, page dictionary, else br/zstd)',
  br11: 'brotli 11 alone',
  gzip9: 'gzip 9 alone',
  cdn4: 'CDN on the fly (brotli 4)',
}
const COLORS: Record<Method, string> = { preencode: '#1a7f37', br11: '#0969da', gzip9: '#bf8700', cdn4: '#cf222e' }

export async function runHistory(ctx: BenchContext): Promise<PartResult> {
  const part = emptyPart('history', "Deploy history: what a returning visitor downloads across real sites' releases")
  // A shorter history on a busy machine (PREENCODE_BENCH_HISTORY_RELEASES), some sites only
  // (PREENCODE_BENCH_HISTORY_SITES=slug,slug): the page says so.
  const shorter = Number(process.env.PREENCODE_BENCH_HISTORY_RELEASES) || undefined
  const count = ctx.quick ? QUICK_RELEASES : (shorter ?? RELEASES)
  part.description = [
    `Real sites' build histories: ${count} consecutive stable npm releases of each package below, downloaded with \`npm pack\``,
    '(kept in bench/node_modules/.cache/history). Each release is laid out as the site folder, compressed with',
    '`preencode compress <dir> --cache-dir <cache>` (the cache kept from deploy to deploy, so deltas come from the build',
    'history; `--pages` for the docs site) and deployed with `preencode deploy <dir> --to <folder>` (deltas against what',
    'the folder holds). A visitor comes first at the oldest release and returns after every deploy: for an app they fetch',
    'the entry page and every script and style it loads, for the docs site a fixed sample (every 4th page of the first',
    'release, by path) plus every page that changed, and the page dictionary the pages link. A file whose bytes they',
    'hold at that URL costs 0 for every method (the browser cache); preencode sends the smallest dcb/dcz delta against',
    'what they hold, else the smaller of br and zstd; the others send brotli 11, gzip 9 or brotli 4 of the original',
    "(never more than the file). preencode's pages carry the dictionary link, so they change whenever the dictionary does,",
    'and its visitors pay for that and for fetching the dictionary.',
  ].join(' ')
  const core = await importBuilt('@preencode/core', ['supportsDictionaryCompression'])
  if ('why' in core) return { ...part, skipped: core.why }
  const internal = await importBuilt('@preencode/core/internal', ['HASHED_NAME_RULE'])
  if ('why' in internal) return { ...part, skipped: internal.why }
  const versionedAsset = internal.mod.HASHED_NAME_RULE.versionedAsset
  if (!core.mod.supportsDictionaryCompression())
    return { ...part, skipped: `Node ${process.versions.node} has no brotli dictionary support (needs 24.15)` }
  part.figures = []
  const only = process.env.PREENCODE_BENCH_HISTORY_SITES?.split(',')
  const apps: number[] = []
  // The sites replay side by side (each deploy's CLI runs are child processes); reported in order.
  const sites = SITES.filter((s) => !only || only.includes(s.slug))
  const replayed = await Promise.allSettled(
    sites.map((site) => replaySite(ctx, site, Math.min(count, site.releases ?? count), versionedAsset)),
  )
  const defaults: number[] = []
  for (const [i, site] of sites.entries()) {
    const outcome = replayed[i]!
    if (outcome.status === 'fulfilled') {
      const { records, bounds } = outcome.value
      const ratio = report(part, site, records, bounds)
      const withDefaults = site.kind === 'app' && site.assets ? withoutAssetDictionary(part, site, records) : ratio
      if (site.kind === 'app' && site.assets) {
        apps.push(ratio)
        defaults.push(withDefaults)
      }
      noteBound(part, site, records, bounds, withDefaults)
    } else {
      ctx.log(`history: ${site.slug} failed: ${(outcome.reason as Error).stack ?? outcome.reason}`)
      part.notes.push(`${site.slug}: not measured: ${firstLine(outcome.reason)}`)
    }
  }
  if (apps.length > 0) {
    const pct = (ratio: number): string => `${(ratio * 100).toFixed(1)}%`
    part.notes.unshift(
      `**Median over the ${apps.length} app histories with hashed names: ${pct(median(defaults))} of brotli 11 with the defaults** (return visits; worst ${pct(Math.max(...defaults))}); ${pct(median(apps))} with \`--asset-dictionary\`, its fetches included (worst ${pct(Math.max(...apps))})`,
    )
  }
  return part
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length / 2
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * The same deploys replayed as with the defaults (no asset dictionary): the visitor never fetches
 * it and no delta against it is sent; every other byte is the same encode (the pages differ from
 * a run without it by the one `<link>`). Notes the result; returns it as a share of brotli 11.
 */
function withoutAssetDictionary(part: PartResult, site: HistorySite, records: DeployRecord[]): number {
  const isAssetDictionary = (path: string): boolean => /(^|\/)preencode-assets-[0-9a-f]{16}\.txt$/.test(path)
  const dictionaries = new Set(
    records.flatMap((r) => r.visit.preencode.filter((f) => isAssetDictionary(f.path)).map((f) => f.hash)),
  )
  const visits = records.map((r) => ({
    ...r.visit,
    preencode: r.visit.preencode
      .filter((f) => !isAssetDictionary(f.path))
      .map((f) => ({
        ...f,
        bytes: { ...f.bytes, deltas: (f.bytes.deltas ?? []).filter((d) => !dictionaries.has(d.dictionary)) },
      })),
  }))
  const returns = replayVisitor(METHODS, visits).returns.slice(1)
  const sum = (m: Method, pick: (v: VisitBytes) => number): number => returns.reduce((n, r) => n + pick(r[m]), 0)
  const total = sum('preencode', (v) => v.total)
  const ratio =
    total /
    Math.max(
      1,
      sum('br11', (v) => v.total),
    )
  const plain = sum('preencode', (v) => v.noDictionary) / Math.max(1, total)
  part.notes.push(
    `${site.slug} without the asset dictionary (the defaults; the same deploys, the visitor never fetching it): ${fmtBytes(total)}, **${(ratio * 100).toFixed(1)}% of brotli 11**, ${(plain * 100).toFixed(1)}% of it sent with no dictionary`,
  )
  return ratio
}

async function replaySite(
  ctx: BenchContext,
  site: HistorySite,
  count: number,
  versionedAsset: string,
): Promise<{ records: DeployRecord[]; bounds: DeployBound[] }> {
  const versions = consecutiveReleases(await publishedVersions(site.packageName), site.last, count)
  const run: SiteRun = { site, scratch: join(ctx.tmp, 'history', site.slug) }
  await mkdir(run.scratch, { recursive: true })
  const records: DeployRecord[] = []
  // The bound's encodes run in zlib's thread pool while the next release compresses.
  const bound = new HistoryBound(versionedAsset)
  const bounds: Promise<DeployBound>[] = []
  for (const version of versions) {
    const record = await deployRelease(run, version, await unpackedRelease(site.packageName, version))
    bounds.push(bound.visit(record.visited))
    ctx.log(
      `history: ${site.slug} ${version}: ${record.changed} visited files changed, compress ${fmtMs(record.compressMs)} (CPU ${fmtMs(record.compressCpuMs)})`,
    )
    records.push(record)
  }
  if (process.env.PREENCODE_BENCH_HISTORY_DUMP)
    await writeFile(
      join(process.env.PREENCODE_BENCH_HISTORY_DUMP, `${site.slug}.json`),
      JSON.stringify(records.map(({ visited: _, ...r }) => r)),
    )
  return { records, bounds: await Promise.all(bounds) }
}

/** Reports one site; returns preencode's return-visit bytes as a share of brotli 11's. */
function report(part: PartResult, site: HistorySite, records: DeployRecord[], bounds: DeployBound[]): number {
  const replay = replayVisitor(
    METHODS,
    records.map((r) => r.visit),
  )
  const returns = replay.returns.slice(1)
  const sum = (m: Method, pick: (v: VisitBytes) => number): number => returns.reduce((n, r) => n + pick(r[m]), 0)
  const total = (m: Method): number => sum(m, (v) => v.total)
  const first = replay.firstVisit.at(-1)!
  const firstFetch = replay.firstVisit[0]!.preencode.dictionaryFetch
  const span = `${site.packageName} ${records[0]!.version} → ${records.at(-1)!.version}`
  const pct = (a: number, b: number): string => `${((a / Math.max(1, b)) * 100).toFixed(1)}%`
  const summary: Table = {
    title: `${site.slug}: ${returns.length} return visits over ${span}`,
    columns: [
      'method',
      'return visits, total',
      'of brotli 11',
      'sent with no dictionary',
      'dictionary fetches (first visit + returns)',
      'per return visit, median',
      'first visit (newest release)',
    ],
    rows: METHODS.map((m) => [
      LABELS[m],
      fmtBytes(total(m)),
      pct(total(m), total('br11')),
      pct(
        sum(m, (v) => v.noDictionary),
        total(m),
      ),
      m === 'preencode' ? `${fmtBytes(firstFetch)} + ${fmtBytes(sum(m, (v) => v.dictionaryFetch))}` : '',
      fmtBytes(lowerMedian(returns.map((r) => r[m].total))),
      fmtBytes(first[m].total),
    ]),
    notes: [
      `site: ${site.description}`,
      `preencode: ${site.assets ? '`--asset-dictionary`' : site.pages ? '`--pages`' : 'the defaults'}; "sent with no dictionary": the share of that method's return bytes sent for files for which the visitor advertised no dictionary (none they held matched the URL); "dictionary fetches": what the visitor paid for the dictionaries the pages link, on the first visit + over the returns (the returns' share is in the total)`,
      `with the first visit's dictionary fetch counted too, preencode's return visits come to ${pct(total('preencode') + firstFetch, total('br11'))} of brotli 11`,
      `build time preencode adds per deploy (\`preencode compress\`, a child process: variants${site.pages ? ', page dictionary' : ''}${site.assets ? ', asset dictionary' : ''}, deltas), median ${fmtMs(lowerMedian(records.map((r) => r.compressMs)))} wall and ${fmtMs(lowerMedian(records.map((r) => r.compressCpuMs)))} CPU (user + system, worker threads included: what the machine's load does not inflate), total ${fmtMs(records.reduce((n, r) => n + r.compressMs, 0))} wall, ${fmtMs(records.reduce((n, r) => n + r.compressCpuMs, 0))} CPU; \`preencode deploy\` to the folder (deltas against it, copy): median ${fmtMs(lowerMedian(records.map((r) => r.deployMs)))}`,
    ],
  }
  const perDeploy: Table = {
    title: `${site.slug}: bytes of the return visit after each deploy`,
    columns: ['release', 'changed files visited', ...METHODS.map((m) => LABELS[m]), 'compress time (wall / CPU)'],
    rows: records
      .slice(1)
      .map((r, i) => [
        r.version,
        String(r.changed),
        ...METHODS.map((m) => fmtBytes(returns[i]![m].total)),
        `${fmtMs(r.compressMs)} / ${fmtMs(r.compressCpuMs)}`,
      ]),
  }
  addBound(summary, perDeploy, bounds.slice(1), total('br11'))
  part.tables.push(summary, perDeploy)
  part.notes.push(
    `**${site.slug}: a returning visitor downloads ${fmtBytes(total('preencode'))} instead of ${fmtBytes(total('br11'))} (brotli 11, ${pct(total('preencode'), total('br11'))}), ${fmtBytes(total('gzip9'))} (gzip 9) or ${fmtBytes(total('cdn4'))} (a CDN at brotli 4)** over ${returns.length} deploys of ${span}`,
  )
  const ratio = total('preencode') / Math.max(1, total('br11'))
  if (site.kind === 'app' && site.assets)
    part.targets.push({
      part: 'history',
      target: `${site.slug}: return visits ≤ ${APP_TARGET * 100}% of brotli 11`,
      measured: pct(total('preencode'), total('br11')),
      pass: ratio <= APP_TARGET,
    })
  part.figures!.push(chart(site, records, replay.returns))
  return ratio
}

const BOUND_LABEL = 'bound: everything held as one dictionary'
const sumBound = (bounds: readonly DeployBound[], pick: (b: DeployBound) => number): number =>
  bounds.reduce((n, b) => n + pick(b), 0)

/** The bound (bound.ts) as a row of the summary and a column of the per-deploy table. */
function addBound(summary: Table, perDeploy: Table, returns: DeployBound[], br11: number): void {
  const total = sumBound(returns, (b) => b.bound)
  const row = [BOUND_LABEL, fmtBytes(total), `${((total / Math.max(1, br11)) * 100).toFixed(1)}%`]
  summary.rows.push([
    ...row,
    ...summary.columns.slice(3).map((_, i) => (i === 2 ? fmtBytes(lowerMedian(returns.map((b) => b.bound))) : '')),
  ])
  summary.notes!.push(
    `"${BOUND_LABEL}": for each file the visitor fetches, the least of brotli 11 alone, dcz (zstd 19) and dcb (brotli 11, where dictionary and file fit 16 MiB) against every distinct content they fetched before, as one raw dictionary (the least recently loaded first, cut from the front to fit zstd's 128 MiB window), no dictionary fetch counted: an estimate of the least any RFC 9842 scheme could send`,
  )
  perDeploy.columns.splice(-1, 0, BOUND_LABEL)
  for (const [i, r] of perDeploy.rows.entries()) r.splice(-1, 0, fmtBytes(returns[i]!.bound))
}

/** A note per site: preencode with the defaults against the bound, and the share of the bound for new stems. */
function noteBound(
  part: PartResult,
  site: HistorySite,
  records: DeployRecord[],
  bounds: DeployBound[],
  defaults: number,
): void {
  const returns = bounds.slice(1)
  const br11 = replayVisitor(
    METHODS,
    records.map((r) => r.visit),
  ).returns.reduce((n, r) => n + r.br11.total, 0)
  const bound = sumBound(returns, (b) => b.bound)
  const ratio = bound / Math.max(1, br11)
  const newStem = sumBound(returns, (b) => b.newStemBound) / Math.max(1, bound)
  part.notes.push(
    `**${site.slug}: bound ${fmtBytes(bound)}, ${(ratio * 100).toFixed(1)}% of brotli 11**; preencode (${site.assets ? 'defaults' : 'as run'}) / bound: ${(defaults / Math.max(ratio, 1e-9)).toFixed(1)}×; ${(newStem * 100).toFixed(1)}% of the bound is files whose stem is new (no earlier file of that name)`,
  )
}

function chart(site: HistorySite, records: DeployRecord[], returns: Record<Method, VisitBytes>[]): Figure {
  const svg = renderLineChart({
    title: `${site.slug}: bytes a returning visitor downloads after each deploy`,
    xLabel: `${site.packageName} release`,
    formatY: fmtBytes,
    yUnit: 1024,
    xLabels: records.slice(1).map((r) => r.version),
    series: METHODS.map((m) => ({
      name: LABELS[m],
      color: COLORS[m],
      values: returns.slice(1).map((r) => r[m].total),
    })),
  })
  return { file: `benchmarks-history-${site.slug}.svg`, alt: `${site.slug}: bytes per return visit, per deploy`, svg }
}
