// Dictionary part (RFC 9842): what a returning visitor downloads after an update — bench/app
// built plainly twice around a one-line source edit, every changed chunk as brotli 11 vs dcb and
// dcz against its previous version (preencode's writeDeltas, previous versions read from the
// first build's folder) — and what a page navigation costs with the shared page dictionary vs
// brotli, with preencode's dictionary builder and `zstd --train` at the same size.
import { execFileSync } from 'node:child_process'
import { appendFile, cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { BuildOutcome, BuildSpec } from './build-spec.ts'
import { emptyPart, type PartResult } from '../lib/report.ts'
import type { BenchContext } from '../lib/context.ts'
import { firstLine, fmtBytes, fmtInt, fmtMs, importBuilt, runChild } from '../lib/util.ts'

const REPO_ROOT = resolve(import.meta.dirname, '..', '..')
const APP_ROOT = join(REPO_ROOT, 'bench', 'app')
const UPDATE_TARGET = 0.05
const PAGES_TARGET = 0.4
const DICTIONARY_BYTES = 65536

type Core = typeof import('@preencode/core')

export async function runDictionary(ctx: BenchContext): Promise<PartResult> {
  const part = emptyPart('dictionary', 'Dictionary transport (RFC 9842): updates and page navigations')
  part.description = [
    'Update: a copy of bench/app is built plainly (no compression plugin), one line is appended to one source file,',
    'and it is built again; the second output is compressed by `compressDirectory` and `writeDeltas` makes dcb/dcz',
    'deltas of every changed chunk against its previous version, read from the first output folder. Pages: a',
    'generated documentation site (400 pages from one template, text varying per page); a 64 KB dictionary is built',
    'from the even pages and the odd pages are compressed with it (held out: never seen by the builder).',
  ].join(' ')
  const core = await importBuilt<Core>('@preencode/core', ['writeDeltas', 'buildDictionary', 'encodeWithDictionary'])
  if ('why' in core) return { ...part, skipped: core.why }
  if (!core.mod.supportsDictionaryCompression())
    return { ...part, skipped: `Node ${process.versions.node} has no brotli dictionary support (needs 24.15)` }
  const dir = join(ctx.tmp, 'dictionary')
  await mkdir(dir, { recursive: true })
  try {
    await updates(ctx, core.mod, dir, part)
  } catch (error) {
    part.notes.push(`update measurement failed: ${firstLine(error)}`)
  }
  await pages(ctx, core.mod, dir, part)
  return part
}

/** Builds a copy of bench/app plainly (no compression plugin) in a child process; also used by delta-versions.ts. */
export async function buildApp(ctx: BenchContext, app: string, outDir: string, resultFile: string): Promise<void> {
  const entryNames = ctx.quick
    ? { scene: 'scene.html' }
    : { index: 'index.html', charts: 'charts.html', scene: 'scene.html' }
  const entries = Object.fromEntries(Object.entries(entryNames).map(([k, v]) => [k, join(app, v)]))
  const spec: BuildSpec = { tool: 'baseline', appRoot: app, outDir, entries, resultFile }
  const child = await runChild(process.execPath, [join(import.meta.dirname, 'build-child.ts'), JSON.stringify(spec)], {
    timeoutMs: 15 * 60_000,
  })
  const outcome = JSON.parse(
    await readFile(resultFile, 'utf8').catch(
      () => `{"error":${JSON.stringify(`build child exited ${child.code}: ${child.stderr.slice(-1000)}`)}}`,
    ),
  ) as BuildOutcome
  if (outcome.error) throw new Error(`bench/app build failed: ${outcome.error}`)
}

async function updates(ctx: BenchContext, core: Core, dir: string, part: PartResult): Promise<void> {
  const app = join(dir, 'app')
  await cp(APP_ROOT, app, { recursive: true })
  await symlink(join(APP_ROOT, '..', 'node_modules'), join(app, 'node_modules'), 'dir')
  const v1 = join(dir, 'v1')
  const v2 = join(dir, 'v2')
  ctx.log('dictionary: building bench/app twice around a one-line edit')
  await buildApp(ctx, app, v1, join(dir, 'v1.json'))
  const source = ctx.quick ? 'src/scene.ts' : 'src/chart-render.ts'
  await appendFile(join(app, source), "\nconsole.info('bench: version 2')\n")
  await buildApp(ctx, app, v2, join(dir, 'v2.json'))
  const cache = ctx.shared.preencodeCache ?? join(dir, 'cache')
  const { manifest } = await core.compressDirectory(v2, { cache })
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

/** A documentation page: one template, text varying with a seed. */
function docPage(n: number): Buffer {
  let seed = n * 7919 + 1
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x7fffffff
  }
  const words =
    'the of and to in is for that with as on by this are from be or an it at which you can not have more use your will all its one configuration server build plugin compress dictionary browser response request header file page option cache deploy manifest'.split(
      ' ',
    )
  const nav = Array.from(
    { length: 60 },
    (_, i) =>
      `<li><a href="/docs/section-${i}/">Section ${i}: ${words[i % words.length]} ${words[(i * 7) % words.length]}</a></li>`,
  ).join('\n')
  const paragraphs = Array.from(
    { length: 4 + Math.floor(random() * 16) },
    () =>
      `<p>${Array.from({ length: 30 + Math.floor(random() * 60) }, () => words[Math.floor(random() * words.length)]).join(' ')}.</p>`,
  )
  return Buffer.from(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Topic ${n} · Docs</title><link rel="stylesheet" href="/assets/style-Ab12Cd34.css"><script type="module" src="/assets/app-Ef56Gh78.js"></script></head><body><header class="site-header"><a class="logo" href="/">Docs</a><nav><ul>${nav}</ul></nav></header><main><h1>Topic ${n}</h1>${paragraphs.join('\n')}<pre><code>preencode({ deltas: { versions: ${n % 5} } })</code></pre></main><footer class="site-footer"><p>Built with preencode.</p></footer></body></html>\n`,
  )
}

async function pages(ctx: BenchContext, core: Core, dir: string, part: PartResult): Promise<void> {
  const count = ctx.quick ? 80 : 400
  const all = Array.from({ length: count }, (_, i) => docPage(i))
  const train = all.filter((_, i) => i % 2 === 0)
  const held = all.filter((_, i) => i % 2 === 1)
  const started = performance.now()
  const mine = core.buildDictionary(train, { size: DICTIONARY_BYTES })
  const builderMs = performance.now() - started
  const dictionaries: [string, Buffer, number][] = [['preencode buildDictionary', mine, builderMs]]
  try {
    const trainDir = join(dir, 'train')
    await mkdir(trainDir, { recursive: true })
    const files = await Promise.all(
      train.map(async (page, i) => {
        const f = join(trainDir, `${i}.html`)
        await writeFile(f, page)
        return f
      }),
    )
    const zstdStarted = performance.now()
    execFileSync('zstd', ['--train', ...files, '-o', join(dir, 'zstd.dict'), `--maxdict=${DICTIONARY_BYTES}`, '-q'])
    dictionaries.push(['zstd --train', await readFile(join(dir, 'zstd.dict')), performance.now() - zstdStarted])
  } catch (error) {
    part.notes.push(`zstd --train not measured: ${firstLine(error)}`)
  }
  let brotli = 0
  for (const page of held) brotli += (await core.encodeBuffer('brotli', page, 11, { path: 'page.html' })).byteLength
  const rows: string[][] = [['brotli 11 (no dictionary)', '', fmtBytes(brotli), '100%', '', '']]
  for (const [name, dictionary, ms] of dictionaries) {
    let dcb = 0
    let dcz = 0
    const raw = core.acceptsDictionary('dcz', dictionary)
    for (const page of held) {
      dcb += (await core.encodeWithDictionary('dcb', page, dictionary, { path: 'page.html' })).byteLength
      if (raw) dcz += (await core.encodeWithDictionary('dcz', page, dictionary)).byteLength
    }
    rows.push([
      name,
      fmtBytes(dictionary.byteLength),
      fmtBytes(dcb),
      `${((dcb / brotli) * 100).toFixed(1)}%`,
      raw ? fmtBytes(dcz) : 'n/a (trained format)',
      fmtMs(ms),
    ])
    if (name.startsWith('preencode')) {
      part.targets.push({
        part: 'dictionary',
        target: `page navigation ≤ ${PAGES_TARGET * 100}% of brotli bytes`,
        measured: `${((dcb / brotli) * 100).toFixed(1)}%`,
        pass: dcb / brotli <= PAGES_TARGET,
      })
    }
  }
  part.tables.push({
    title: `Page navigation: ${held.length} held-out pages, 64 KB dictionary from the other ${train.length}`,
    columns: ['dictionary', 'size', 'dcb', 'of brotli', 'dcz', 'build time'],
    rows,
    notes: [
      "the zstd --train dictionary is in zstd's trained format (entropy tables + content); dcb uses its bytes as a raw prefix, dcz cannot use it raw (RFC 9842 dictionaries are raw)",
      'pages are generated (one template, 60-link navigation, 4-20 paragraphs of words): a stand-in for a documentation site, not a crawl of one',
    ],
  })
}
