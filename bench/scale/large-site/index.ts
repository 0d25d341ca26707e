// Throughput on a large generated site: 20,000 files (a documentation site's shape: many small
// HTML pages, some CSS/JS/JSON), compressed cold and then warm by `preencode compress` in its own
// process. Files/s and MB/s count the originals of the site.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CompressReport } from '@preencode/core'
import type { BenchContext } from '../../lib/context.ts'
import { CLI_BIN } from '../../lib/paths.ts'
import type { PartResult } from '../../lib/report.ts'
import { firstLine, fmtBytes, fmtInt, fmtMs, runChild } from '../../lib/util.ts'

const LARGE_SITE_FILES = 20_000
const WORDS = [
  'static',
  'site',
  'compress',
  'brotli',
  'request',
  'header',
  'cache',
  'server',
  'bundle',
  'deploy',
  'encoding',
  'variant',
  'browser',
  'module',
  'config',
  'build',
  'asset',
  'manifest',
  'network',
  'latency',
]

/** Deterministic text of about `bytes` bytes: a seeded word stream, so every page differs. */
function prose(seed: number, bytes: number): string {
  let state = seed * 2654435761 + 1
  const out: string[] = []
  let length = 0
  while (length < bytes) {
    state = (state * 1103515245 + 12345) >>> 0
    const word = `${WORDS[state % WORDS.length]!}${state % 7 === 0 ? `-${state % 1000}` : ''}`
    out.push(word)
    length += word.length + 1
  }
  return out.join(' ')
}

async function generate(root: string, count: number): Promise<number> {
  let bytes = 0
  const write = async (path: string, text: string): Promise<void> => {
    await writeFile(join(root, path), text)
    bytes += Buffer.byteLength(text)
  }
  const sections = Math.ceil(count / 500)
  for (let s = 0; s < sections; s++) await mkdir(join(root, 'docs', `section-${s}`), { recursive: true })
  await mkdir(join(root, 'assets'), { recursive: true })
  for (let i = 0; i < count; i++) {
    if (i % 100 === 99) {
      await write(
        `assets/chunk-${i}.js`,
        `export const text${i} = ${JSON.stringify(prose(i, 12_000 + (i % 5) * 4000))}\n`,
      )
    } else if (i % 100 === 98) {
      await write(`assets/search-${i}.json`, JSON.stringify({ id: i, terms: prose(i, 6000).split(' ') }))
    } else {
      await write(
        `docs/section-${Math.floor(i / 500)}/page-${i}.html`,
        `<!doctype html><html><head><title>page ${i}</title><link rel="stylesheet" href="/assets/site.css"></head><body><main><h1>Page ${i}</h1><p>${prose(i, 1500 + (i % 11) * 400)}</p></main></body></html>\n`,
      )
    }
  }
  return bytes
}

export async function measureLargeSite(ctx: BenchContext, part: PartResult, work: string): Promise<void> {
  const count = ctx.quick ? 2_000 : LARGE_SITE_FILES
  const root = join(work, 'site')
  const cache = join(work, 'cache')
  await rm(work, { recursive: true, force: true })
  await mkdir(root, { recursive: true })
  ctx.log(`scale: generating a ${count}-file site…`)
  const bytes = await generate(root, count)
  const rows: string[][] = []
  for (const run of ['cold', 'warm'] as const) {
    ctx.log(`scale: large site, ${run}…`)
    const child = await runChild(process.execPath, [CLI_BIN, 'compress', root, '--cache-dir', cache, '--json'], {
      timeoutMs: 60 * 60_000,
      env: { CI: 'true' },
    })
    if (child.code !== 0) {
      part.notes.push(`large site ${run} run failed: ${firstLine(child.stderr)}`)
      rows.push([run, fmtInt(count), fmtBytes(bytes), 'failed', '', '', ''])
      continue
    }
    const report = JSON.parse(child.stdout) as CompressReport
    const seconds = child.wallMs / 1000
    rows.push([
      run,
      fmtInt(count),
      fmtBytes(bytes),
      fmtMs(child.wallMs),
      fmtInt(count / seconds),
      `${(bytes / 1e6 / seconds).toFixed(2)} MB/s`,
      `${fmtInt(report.cache.misses)} / ${fmtInt(report.cache.hits)}`,
    ])
    ctx.log(`scale: large site ${run}: ${fmtMs(child.wallMs)}`)
  }
  part.tables.push({
    title: `Throughput on a generated ${fmtInt(count)}-file site (preencode compress, gzip + brotli + zstd at the defaults)`,
    columns: ['run', 'files', 'bytes', 'time', 'files/s', 'MB/s', 'encodes / cache hits'],
    rows,
    notes: [
      'the site: 98% HTML pages of 1.5–5.5 kB of seeded word streams in folders of 500, 1% JS chunks of 12–28 kB, 1% JSON; every file differs',
      'cold = empty cache directory; warm = the same site and cache again (nothing to encode: the per-file cost of scanning, hashing and checking)',
    ],
  })
  await rm(work, { recursive: true, force: true })
}
