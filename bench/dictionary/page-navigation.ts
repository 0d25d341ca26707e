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
  const notes: string[] = []
  const trainDir = join(scratch, 'train')
  await mkdir(trainDir, { recursive: true })
  const files = await Promise.all(
    train.map(async (page, i) => {
      const f = join(trainDir, `${i}.html`)
      await writeFile(f, page)
      return f
    }),
  )
  const pageBrotli: number[] = []
  for (const page of held)
    pageBrotli.push((await core.encodeBuffer('brotli', page, 11, { path: 'page.html' })).byteLength)
  const brotli = pageBrotli.reduce((a, b) => a + b, 0)
  const rows: string[][] = [['brotli 11 (no dictionary)', '', '', fmtBytes(brotli), '100%', '', '', '', '', '', '']]
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
      let dcb = 0
      let dcz = 0
      let sent = 0
      const raw = core.DICTIONARY_CODECS.dcz.accepts(dictionary.bytes)
      for (const [i, page] of held.entries()) {
        const b = (await core.encodeWithDictionary('dcb', page, dictionary.bytes, { path: 'page.html' })).byteLength
        const z = raw ? (await core.encodeWithDictionary('dcz', page, dictionary.bytes)).byteLength : Infinity
        dcb += b
        if (raw) dcz += z
        sent += Math.min(pageBrotli[i]!, b, z)
      }
      const own = (await core.encodeBuffer('brotli', dictionary.bytes, 11, { path: 'dictionary.txt' })).byteLength
      rows.push([
        dictionary.name,
        fmtBytes(dictionary.bytes.byteLength),
        fmtBytes(own),
        fmtBytes(dcb),
        percent(dcb, brotli),
        raw ? fmtBytes(dcz) : 'n/a',
        raw ? percent(dcz, brotli) : '',
        fmtBytes(sent + own),
        percent(sent + own, brotli),
        repaidAfter(own, brotli - sent, held.length),
        fmtMs(dictionary.ms),
      ])
      if (dictionary.bytes === mine && size === defaultSize) ratioAtDefault = (sent + own) / brotli
    }
  }
  const avg = corpus.pages.reduce((sum, p) => sum + p.byteLength, 0) / Math.max(1, corpus.pages.length)
  return {
    table: {
      title: `Page navigation, ${corpus.name}: ${held.length} held-out pages, dictionaries from the other ${train.length}`,
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
        'repaid after',
        'build time',
      ],
      rows,
      notes: [
        `corpus: ${corpus.description}; ${fmtBytes(avg)} per page on average`,
        "a zstd --train dictionary is in zstd's trained format (entropy tables + content): dcb uses its bytes as a raw prefix, dcz cannot use it (RFC 9842 dictionaries are raw), hence n/a",
        '"dictionary as brotli": what a visitor downloads once for the dictionary itself (brotli 11 of it); "navigations + dictionary": every held-out page as the server sends it (the smallest of its dcb, dcz and br: a delta is written only when smaller) plus that one dictionary fetch, the figure the target checks; "repaid after": how many such page navigations save that many bytes over brotli (on the average held-out page)',
        ...notes,
      ],
    },
    ratioAtDefault,
  }
}
