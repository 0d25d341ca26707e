// The build part's bytes comparison: per format, the variants preencode and the peer wrote for
// the same originals, checked to decode to the same input, summed and compared.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'
import type { PartResult } from '../lib/report.ts'
import { fmtBytes, fmtInt, ratio } from '../lib/util.ts'

const VARIANT_EXT = { gzip: '.gz', brotli: '.br', zstd: '.zst' } as const
type Format = keyof typeof VARIANT_EXT
const FORMAT_LIST = Object.keys(VARIANT_EXT) as Format[]

export interface BytesInputs {
  /** File sizes of the peer's output; undefined when its builds failed. */
  peerFiles: Map<string, number> | undefined
  /** File sizes of preencode's output; undefined when its builds were skipped or failed. */
  preFiles: Map<string, number> | undefined
  peerDir: string
  preDir: string
  preencodeWhy: string | undefined
}

/** Within this share of the peer's bytes per format is enough (issue 37): 0.05%. */
export const BYTES_TOLERANCE = 0.0005

/** One format's variants of the same originals, preencode's against the peer's. */
export interface FormatBytes {
  format: Format
  preFiles: number
  peerFiles: number
  /** Originals both tools wrote this variant for, from the same input. */
  common: number
  preCommon: number
  peerCommon: number
  /** Common originals whose variant is larger than the peer's. */
  larger: string[]
  preTotal: number
  peerTotal: number
  notes: string[]
}

/** `1.0004× (+512 B)`: four decimals and the difference, since both tools use the same zlib. */
export function fmtBytesRatio(b: FormatBytes): string {
  const r = ratio(b.preCommon, b.peerCommon)
  const delta = b.preCommon - b.peerCommon
  return Number.isFinite(r) ? `${r.toFixed(4)}× (${delta >= 0 ? '+' : '−'}${fmtInt(Math.abs(delta))} B)` : 'n/a'
}

/** Whether preencode's bytes are within `BYTES_TOLERANCE` of the peer's; undefined if nothing to compare. */
export function withinTolerance(b: FormatBytes): boolean | undefined {
  const r = ratio(b.preCommon, b.peerCommon)
  return Number.isFinite(r) ? r <= 1 + BYTES_TOLERANCE : undefined
}

/** Per format, the variants both tools wrote for the same originals (listings of both outputs). */
export async function bytesPerFormat(
  peerFiles: Map<string, number>,
  preFiles: Map<string, number>,
  peerDir: string,
  preDir: string,
): Promise<FormatBytes[]> {
  const variantsOf = (files: Map<string, number>, format: Format) => {
    const out = new Map<string, number>()
    for (const [path, size] of files)
      if (path.endsWith(VARIANT_EXT[format])) out.set(path.slice(0, -VARIANT_EXT[format].length), size)
    return out
  }
  const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0)
  const results: FormatBytes[] = []
  for (const format of FORMAT_LIST) {
    const peer = variantsOf(peerFiles, format)
    const pre = variantsOf(preFiles, format)
    const notes: string[] = []
    // Same input only: the peer compresses chunks in generateBundle, before later plugins
    // may rewrite them, so a variant of its can hold other bytes than the file on disk; a
    // size comparison of those would compare different inputs (none on bench/app today).
    const both = [...pre.keys()].filter((p) => peer.has(p))
    const common: string[] = []
    for (const path of both)
      if (await sameInput(join(peerDir, path + VARIANT_EXT[format]), format, join(preDir, path))) common.push(path)
    if (common.length < both.length)
      notes.push(
        `${format}: ${both.length - common.length} of the peer's variants decode to other bytes than the file preencode compressed (stale input): left out of the comparison`,
      )
    // Per file, not only in total: a sum can hide one file that lost (issue 28).
    const larger = common.filter((p) => pre.get(p)! > peer.get(p)!)
    if (larger.length)
      notes.push(
        `${format}: larger than the peer's: ${larger
          .slice(0, 6)
          .map((p) => `${p} (+${fmtInt(pre.get(p)! - peer.get(p)!)} B)`)
          .join(', ')}${larger.length > 6 ? `, … ${larger.length - 6} more` : ''}`,
      )
    const onlyPre = [...pre.keys()].filter((p) => !peer.has(p))
    const onlyPeer = [...peer.keys()].filter((p) => !pre.has(p))
    if (onlyPre.length) notes.push(`${format}: only preencode wrote ${onlyPre.length}: ${summarize(onlyPre, preFiles)}`)
    if (onlyPeer.length)
      notes.push(`${format}: only the peer wrote ${onlyPeer.length}: ${summarize(onlyPeer, peerFiles)}`)
    results.push({
      format,
      preFiles: pre.size,
      peerFiles: peer.size,
      common: common.length,
      preCommon: sum(common.map((p) => pre.get(p)!)),
      peerCommon: sum(common.map((p) => peer.get(p)!)),
      larger,
      preTotal: sum(pre.values()),
      peerTotal: sum(peer.values()),
      notes,
    })
  }
  return results
}

/** Adds the "Compressed bytes per format" table and its targets to `part`; returns the comparison. */
export async function compareBytes(part: PartResult, inputs: BytesInputs): Promise<FormatBytes[] | undefined> {
  const { peerFiles, preFiles, preencodeWhy } = inputs
  if (!peerFiles) {
    part.targets.push({ part: 'build', target: "bytes per format ≤ peer's", why: 'the peer build failed' })
    return undefined
  }
  if (!preFiles) {
    part.targets.push({
      part: 'build',
      target: "bytes per format ≤ peer's",
      why: preencodeWhy ?? 'preencode build failed',
    })
    return undefined
  }
  const results = await bytesPerFormat(peerFiles, preFiles, inputs.peerDir, inputs.preDir)
  for (const b of results)
    part.targets.push({
      part: 'build',
      target: `bench/app: ${b.format} bytes within ${BYTES_TOLERANCE * 100}% of the peer's (same files)`,
      measured: fmtBytesRatio(b),
      pass: withinTolerance(b),
    })
  part.tables.push({
    title: 'Compressed bytes per format',
    columns: [
      'format',
      'files preencode',
      'files peer',
      'common',
      'preencode bytes (common)',
      'peer bytes (common)',
      'preencode / peer',
      'files larger than the peer’s',
      'all variants preencode / peer',
    ],
    rows: results.map((b) => [
      b.format,
      String(b.preFiles),
      String(b.peerFiles),
      String(b.common),
      fmtInt(b.preCommon),
      fmtInt(b.peerCommon),
      fmtBytesRatio(b),
      String(b.larger.length),
      `${fmtBytes(b.preTotal)} / ${fmtBytes(b.peerTotal)}`,
    ]),
    notes: [
      'bytes are summed over the originals both tools wrote that variant for; the last column sums every variant each tool wrote',
      'preencode skips files under 1 KiB, variants saving < 5%, and compresses more types (fonts, maps, txt); the peer compresses html/xml/css/json/js/mjs/svg/yaml/toml of any size',
      ...results.flatMap((b) => b.notes),
    ],
  })
  return results
}

/** Whether the peer's variant decodes to exactly the original preencode compressed. */
async function sameInput(variant: string, format: Format, original: string): Promise<boolean> {
  const [encoded, expected] = await Promise.all([readFile(variant), readFile(original)])
  const decode = format === 'gzip' ? gunzipSync : format === 'brotli' ? brotliDecompressSync : zstdDecompressSync
  try {
    return decode(encoded).equals(expected)
  } catch {
    return false
  }
}

function summarize(paths: string[], sizes: Map<string, number>): string {
  const shown = paths.slice(0, 6).map((p) => `${p} (${fmtBytes(sizes.get(p) ?? Number.NaN)})`)
  return shown.join(', ') + (paths.length > shown.length ? `, … ${paths.length - shown.length} more` : '')
}
