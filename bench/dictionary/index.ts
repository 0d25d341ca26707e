// Dictionary part (RFC 9842): what a returning visitor downloads after an update — bench/app
// built plainly twice around a one-line source edit, every changed chunk as brotli 11 vs dcb and
// dcz against its previous version (preencode's writeDeltas, previous versions read from the
// first build's folder) — and what a page navigation costs with the shared page dictionary vs
// brotli, with preencode's dictionary builder and `zstd --train` at the same size.
import { appendFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { buildApp, copyApp } from '../lib/app-build/index.ts'
import type { BenchContext } from '../lib/context.ts'
import { importBuilt } from '../lib/packages.ts'
import { emptyPart, type PartResult } from '../lib/report.ts'
import { firstLine, fmtBytes, fmtInt, fmtMs } from '../lib/util.ts'
import { generatedCorpus, npmHtmlCorpus, type PageCorpus, rustBookCorpus, vitepressCorpus } from './docs-corpus.ts'
import { measureNavigation } from './page-navigation.ts'

const UPDATE_TARGET = 0.05
// Issue 28: a real documentation site, summed over its held-out pages.
const PAGES_TARGET = 0.35
const DICTIONARY_BYTES = 65536
/** Sizes measured side by side (the default among them). */
const DICTIONARY_SIZES = [32768, 65536, 131072] as const

type Core = typeof import('@preencode/core') & Pick<typeof import('@preencode/core/internal'), 'buildDictionary'>

export async function runDictionary(ctx: BenchContext): Promise<PartResult> {
  const part = emptyPart('dictionary', 'Dictionary transport (RFC 9842): updates and page navigations')
  part.description = [
    'Update: a copy of bench/app is built plainly (no compression plugin), one line is appended to one source file,',
    'and it is built again; the second output is compressed by `compressDirectory` and `writeDeltas` makes dcb/dcz',
    'deltas of every changed chunk against its previous version, read from the first output folder. Pages: four',
    "corpora, each split by path order into even pages (the builders' input) and odd pages (held out: never seen by",
    "a builder), which are compressed with each dictionary: npm's documentation (shipped in the npm package, a bench",
    "devDependency) built by VitePress, the HTML npm itself renders from the same docs, the Rust book where Debian's",
    "rust-doc is installed, and a generated site whose text is random words (kept as a worst case). preencode's",
    'builder and `zstd --train` are measured at each size. The visitor: one who opens every held-out page once and',
    "fetches the dictionary once (the target's figure), and one who opens 10 average held-out pages.",
  ].join(' ')
  const imported = await importBuilt('@preencode/core', ['writeDeltas', 'encodeWithDictionary'])
  if ('why' in imported) return { ...part, skipped: imported.why }
  const internal = await importBuilt('@preencode/core/internal', ['buildDictionary'])
  if ('why' in internal) return { ...part, skipped: internal.why }
  const core: Core = { ...imported.mod, buildDictionary: internal.mod.buildDictionary }
  if (!core.supportsDictionaryCompression())
    return { ...part, skipped: `Node ${process.versions.node} has no brotli dictionary support (needs 24.15)` }
  const dir = join(ctx.tmp, 'dictionary')
  await mkdir(dir, { recursive: true })
  try {
    await updates(ctx, core, dir, part)
  } catch (error) {
    part.notes.push(`update measurement failed: ${firstLine(error)}`)
  }
  await pages(ctx, core, dir, part)
  return part
}

async function updates(ctx: BenchContext, core: Core, dir: string, part: PartResult): Promise<void> {
  const app = join(dir, 'app')
  await copyApp(app)
  const v1 = join(dir, 'v1')
  const v2 = join(dir, 'v2')
  ctx.log('dictionary: building bench/app twice around a one-line edit')
  await buildApp(ctx, app, v1, join(dir, 'v1.json'))
  const source = ctx.quick ? 'src/scene.ts' : 'src/chart-render.ts'
  await appendFile(join(app, source), "\nconsole.info('bench: version 2')\n")
  await buildApp(ctx, app, v2, join(dir, 'v2.json'))
  const cache = ctx.shared.preencodeCache ?? join(dir, 'cache')
  const { manifest } = await core.compress(v2, { cache })
  const started = performance.now()
  const { report } = await core.writeDeltas(v2, manifest, core.resolveDeltaOptions({ previous: v1, remember: false }), {
    cacheDir: join(dir, 'delta-cache'),
  })
  const deltaMs = performance.now() - started
  const rows = report.files.map((f) => [
    f.path,
    fmtBytes(f.originalBytes),
    fmtBytes(f.brotliBytes),
    fmtBytes(f.deltaBytes),
    f.encoding,
    `${((f.deltaBytes / f.brotliBytes) * 100).toFixed(2)}%`,
  ])
  const perCoding = new Map<string, number>()
  const next = await core.readManifest(v2)
  for (const file of next.files) {
    const best = new Map<string, number>()
    for (const delta of file.deltas ?? [])
      best.set(delta.encoding, Math.min(best.get(delta.encoding) ?? Infinity, delta.size))
    for (const [encoding, size] of best) perCoding.set(encoding, (perCoding.get(encoding) ?? 0) + size)
  }
  const { brotliBytes, deltaBytes } = report.totals
  part.tables.push({
    title: `Returning visitor after a one-line edit of ${source}: changed chunks`,
    columns: ['file', 'original', 'brotli 11', 'smallest delta', 'coding', 'of brotli'],
    rows: [
      ...rows,
      [
        'total',
        fmtBytes(report.totals.originalBytes),
        fmtBytes(brotliBytes),
        fmtBytes(deltaBytes),
        '',
        `${((deltaBytes / Math.max(1, brotliBytes)) * 100).toFixed(2)}%`,
      ],
    ],
    notes: [
      `${report.files.length} changed chunks with a previous version; in total dcb ${fmtBytes(perCoding.get('dcb') ?? 0)}, dcz ${fmtBytes(perCoding.get('dcz') ?? 0)}, brotli ${fmtBytes(brotliBytes)}`,
      `writeDeltas took ${fmtMs(deltaMs)} (cold delta cache, ${fmtInt(report.deltasWritten)} delta files): the build time the dictionary work adds to a build that already compressed`,
    ],
  })
  const r = deltaBytes / Math.max(1, brotliBytes)
  part.targets.push({
    part: 'dictionary',
    target: `update ≤ ${UPDATE_TARGET * 100}% of brotli bytes`,
    measured: `${(r * 100).toFixed(2)}%`,
    pass: report.files.length > 0 ? r <= UPDATE_TARGET : undefined,
  })
}

async function pages(ctx: BenchContext, core: Core, dir: string, part: PartResult): Promise<void> {
  const corpora: { corpus: () => Promise<PageCorpus>; realistic: boolean }[] = [
    { corpus: () => vitepressCorpus(dir), realistic: true },
    { corpus: npmHtmlCorpus, realistic: true },
    { corpus: rustBookCorpus, realistic: true },
    { corpus: async () => generatedCorpus(ctx.quick ? 80 : 400), realistic: false },
  ]
  for (const [index, { corpus: load, realistic }] of corpora.entries()) {
    let corpus: PageCorpus
    try {
      corpus = await load()
    } catch (error) {
      part.notes.push(`page corpus ${index + 1} not measured: ${firstLine(error)}`)
      continue
    }
    ctx.log(`dictionary: page navigations, ${corpus.name} (${corpus.pages.length} pages)`)
    const scratch = join(dir, `pages-${index}`)
    const sizes = ctx.quick ? [DICTIONARY_BYTES] : DICTIONARY_SIZES
    const result = await measureNavigation(core, corpus, sizes, DICTIONARY_BYTES, scratch)
    part.tables.push(result.table)
    part.targets.push({
      part: 'dictionary',
      target: `page navigation ≤ ${PAGES_TARGET * 100}% of brotli bytes, the dictionary's fetch included (${corpus.name}${realistic ? '' : ', not a real site'})`,
      measured: `${(result.ratioAtDefault * 100).toFixed(1)}%`,
      pass: result.ratioAtDefault <= PAGES_TARGET,
    })
  }
}
