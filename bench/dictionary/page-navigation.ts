// Bytes of a page navigation with a shared page dictionary (RFC 9842) vs brotli 11, for one
// corpus: a dictionary is built from the even pages (by path order), the odd pages are held out
// (never seen by a builder) and compressed with it. preencode's buildDictionary and
// `zstd --train` are measured at the same sizes in the same run.
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Table } from '../lib/report.ts'
import { firstLine, fmtBytes, fmtMs } from '../lib/util.ts'
import type { PageCorpus } from './docs-corpus.ts'

type Core = typeof import('@preencode/core') & Pick<typeof import('@preencode/core/internal'), 'buildDictionary'>

export interface NavigationResult {
  table: Table
  /**
   * What the held-out pages cost with preencode's dictionary at `defaultSize`, the dictionary's
   * own fetch (brotli 11) included, over their brotli 11 bytes. Each page as the server sends it:
   * the smallest of its dcb, dcz and br (a delta is written only when smaller).
   */
  ratioAtDefault: number
}

interface Dictionary {
  name: string
  bytes: Buffer
  ms: number
}

const percent = (part: number, whole: number): string => `${((part / Math.max(1, whole)) * 100).toFixed(1)}%`

/** A shorter visit than the whole held-out half: the same pages on average, the dictionary fetched once. */
const VISIT_PAGES = 10

/** Navigations whose dcb savings over brotli pay for downloading the dictionary once. */
function repaidAfter(dictionaryBrotli: number, saved: number, pages: number): string {
  if (saved <= 0) return 'never'
  return `${(dictionaryBrotli / (saved / pages)).toFixed(1)} pages`
}

/** The system `zstd --train` (the bench's reference only: preencode needs no binary). */
async function zstdTrain(files: string[], size: number, out: string): Promise<Dictionary> {
  const started = performance.now()
  execFileSync('zstd', ['--train', ...files, '-o', out, `--maxdict=${size}`, '-q', '-f'], { stdio: 'pipe' })
  const ms = performance.now() - started
  return { name: `zstd --train ${size / 1024} KB`, bytes: await readFile(out), ms }
}

interface Measured {
  dcb: number
  /** Infinity for a dictionary dcz cannot use. */
  dcz: number
  /** Each held-out page as the server sends it: the smallest of its br, dcb and dcz. */
  sent: number[]
  /** The dictionary's own brotli 11: what the visitor fetches once. */
  own: number
}

async function measureDictionary(core: Core, held: Buffer[], pageBrotli: number[], bytes: Buffer): Promise<Measured> {
  let dcb = 0
  let dcz = 0
  const sent: number[] = []
  const raw = core.DICTIONARY_CODECS.dcz.accepts(bytes)
  for (const [i, page] of held.entries()) {
    const b = (await core.encodeWithDictionary('dcb', page, bytes, { path: 'page.html' })).byteLength
    const z = raw ? (await core.encodeWithDictionary('dcz', page, bytes)).byteLength : Infinity
    dcb += b
    dcz += z
    sent.push(Math.min(pageBrotli[i]!, b, z))
  }
  const own = (await core.encodeBuffer('brotli', bytes, 11, { path: 'dictionary.txt' })).byteLength
  return { dcb, dcz, sent, own }
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0)

function row(dictionary: Dictionary, m: Measured, brotli: number, pages: number): string[] {
  const sent = sum(m.sent)
  const visit = (VISIT_PAGES * sent) / pages + m.own
  return [
    dictionary.name,
    fmtBytes(dictionary.bytes.byteLength),
    fmtBytes(m.own),
    fmtBytes(m.dcb),
    percent(m.dcb, brotli),
    Number.isFinite(m.dcz) ? fmtBytes(m.dcz) : 'n/a',
    Number.isFinite(m.dcz) ? percent(m.dcz, brotli) : '',
    fmtBytes(sent + m.own),
    percent(sent + m.own, brotli),
    percent(visit, (VISIT_PAGES * brotli) / pages),
    repaidAfter(m.own, brotli - sent, pages),
    fmtMs(dictionary.ms),
  ]
}

/** The held-out pages' `<main>` elements alone (0 B for a page without one). */
function mainOnly(page: Buffer): Buffer {
  const html = page.toString('utf8')
  const begin = html.search(/<main[\s>]/i)
  const end = html.toLowerCase().lastIndexOf('</main>')
  return begin < 0 || end < begin ? Buffer.alloc(0) : Buffer.from(html.slice(begin, end + 7))
}

/**
 * Where the bytes go with the default dictionary: the largest held-out page's share, and the
 * pages' own text (their `<main>` alone) against their brotli.
 */
async function whereTheBytesGo(
  core: Core,
  held: Buffer[],
  heldPaths: string[],
  pageBrotli: number[],
  m: Measured,
): Promise<string[]> {
  const brotli = sum(pageBrotli)
  let largest = 0
  for (const [i, b] of pageBrotli.entries()) if (b > pageBrotli[largest]!) largest = i
  const rest = sum(m.sent) - m.sent[largest]! + m.own
  let main = 0
  let withMain = 0
  for (const page of held) {
    const content = mainOnly(page)
    if (content.byteLength === 0) continue
    withMain++
    main += (await core.encodeBuffer('brotli', content, 11, { path: 'page.html' })).byteLength
  }
  const notes = [
    `where the bytes go (default dictionary): the largest held-out page, ${heldPaths[largest]} (${fmtBytes(held[largest]!.byteLength)}), is ${percent(pageBrotli[largest]!, brotli)} of the held-out brotli and goes at ${percent(m.sent[largest]!, pageBrotli[largest]!)} of its own; the other ${held.length - 1} pages with the dictionary's fetch come to ${percent(rest, brotli - pageBrotli[largest]!)} of theirs`,
    `the pages' own text: the ${withMain} held-out pages' \`<main>\` elements alone (everything outside them free, the rest of the pages 0 B) are ${fmtBytes(main)} as brotli 11, ${percent(main, brotli)} of the held-out brotli: below that only a dictionary that predicts the pages' text goes`,
  ]
  // A corpus without `<main>` elements (npm's own HTML) has no such figure.
  return withMain > 0 ? notes : notes.slice(0, 1)
}

/**
 * Measures one corpus at each dictionary size. `defaultSize` is the size preencode uses by
 * default (its row gives `ratioAtDefault`).
 */
export async function measureNavigation(
  core: Core,
  corpus: PageCorpus,
  sizes: readonly number[],
  defaultSize: number,
  scratch: string,
): Promise<NavigationResult> {
  const train = corpus.pages.filter((_, i) => i % 2 === 0)
  const held = corpus.pages.filter((_, i) => i % 2 === 1)
  const heldPaths = corpus.paths.filter((_, i) => i % 2 === 1)
  const notes: string[] = []
  const files = await writeSamples(train, join(scratch, 'train'))
  const pageBrotli: number[] = []
  for (const page of held)
    pageBrotli.push((await core.encodeBuffer('brotli', page, 11, { path: 'page.html' })).byteLength)
  const brotli = sum(pageBrotli)
  const rows: string[][] = [['brotli 11 (no dictionary)', '', '', fmtBytes(brotli), '100%', '', '', '', '', '', '', '']]
  let ratioAtDefault = Number.NaN
  for (const size of sizes) {
    const started = performance.now()
    const mine = core.buildDictionary(train, { size })
    const dictionaries: Dictionary[] = [
      { name: `preencode ${size / 1024} KB`, bytes: mine, ms: performance.now() - started },
    ]
    try {
      const trained = await zstdTrain(files, size, join(scratch, `zstd-${size}.dict`))
      if (trained.bytes.byteLength < size * 0.9)
        notes.push(
          `zstd --train asked for ${size / 1024} KB returned ${fmtBytes(trained.bytes.byteLength)}: it wants at least 10 times the dictionary size in training data`,
        )
      dictionaries.push(trained)
    } catch (error) {
      notes.push(`zstd --train at ${size / 1024} KB not measured: ${firstLine(error)}`)
    }
    for (const dictionary of dictionaries) {
      const m = await measureDictionary(core, held, pageBrotli, dictionary.bytes)
      rows.push(row(dictionary, m, brotli, held.length))
      if (dictionary.bytes !== mine || size !== defaultSize) continue
      ratioAtDefault = (sum(m.sent) + m.own) / brotli
      notes.unshift(...(await whereTheBytesGo(core, held, heldPaths, pageBrotli, m)))
    }
  }
  return { table: navigationTable(corpus, held.length, train.length, rows, notes), ratioAtDefault }
}

async function writeSamples(pages: Buffer[], dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  return Promise.all(
    pages.map(async (page, i) => {
      const f = join(dir, `${i}.html`)
      await writeFile(f, page)
      return f
    }),
  )
}

function navigationTable(corpus: PageCorpus, held: number, train: number, rows: string[][], notes: string[]): Table {
  const avg = sum(corpus.pages.map((p) => p.byteLength)) / Math.max(1, corpus.pages.length)
  return {
    title: `Page navigation, ${corpus.name}: ${held} held-out pages, dictionaries from the other ${train}`,
    columns: [
      'dictionary',
      'size',
      'dictionary as brotli',
      'dcb',
      'of brotli',
      'dcz',
      'of brotli',
      'navigations + dictionary',
      'of brotli',
      `a ${VISIT_PAGES}-page visit`,
      'repaid after',
      'build time',
    ],
    rows,
    notes: [
      `corpus: ${corpus.description}; ${fmtBytes(avg)} per page on average`,
      "a zstd --train dictionary is in zstd's trained format (entropy tables + content): dcb uses its bytes as a raw prefix, dcz cannot use it (RFC 9842 dictionaries are raw), hence n/a",
      `"dictionary as brotli": what a visitor downloads once for the dictionary itself (brotli 11 of it); "navigations + dictionary": every held-out page as the server sends it (the smallest of its dcb, dcz and br: a delta is written only when smaller) plus that one dictionary fetch, the figure the target checks (one visitor who opens all ${held} held-out pages); "a ${VISIT_PAGES}-page visit": the same for a visitor who opens ${VISIT_PAGES} average held-out pages and fetches the dictionary once; "repaid after": how many such page navigations save that many bytes over brotli (on the average held-out page)`,
      ...notes,
    ],
  }
}
