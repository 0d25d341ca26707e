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

/** Adds the "Compressed bytes per format" table and its targets to `part`. */
export async function compareBytes(part: PartResult, inputs: BytesInputs): Promise<void> {
  const { peerFiles, preFiles, preencodeWhy } = inputs
  const outDir = (tool: 'peer' | 'preencode') => (tool === 'peer' ? inputs.peerDir : inputs.preDir)
  if (peerFiles) {
    const variantsOf = (files: Map<string, number>, format: Format) => {
      const out = new Map<string, number>()
      for (const [path, size] of files)
        if (path.endsWith(VARIANT_EXT[format])) out.set(path.slice(0, -VARIANT_EXT[format].length), size)
      return out
    }
    const rows: string[][] = []
    const notes: string[] = []
    for (const format of FORMAT_LIST) {
      const peer = variantsOf(peerFiles, format)
      const peerTotal = [...peer.values()].reduce((a, b) => a + b, 0)
      if (!preFiles) {
        rows.push([format, 'skipped', String(peer.size), '', '', fmtBytes(peerTotal), '', '', ''])
        continue
      }
      const pre = variantsOf(preFiles, format)
      // Same input only: the peer compresses chunks in generateBundle, before later plugins
      // may rewrite them, so a variant of its can hold other bytes than the file on disk; a
      // size comparison of those would compare different inputs (none on bench/app today).
      const both = [...pre.keys()].filter((p) => peer.has(p))
      const common: string[] = []
      for (const path of both) {
        if (await sameInput(join(outDir('peer'), path + VARIANT_EXT[format]), format, join(outDir('preencode'), path)))
          common.push(path)
      }
      if (common.length < both.length)
        notes.push(
          `${format}: ${both.length - common.length} of the peer's variants decode to other bytes than the file preencode compressed (stale input): left out of the comparison`,
        )
      const preCommon = common.reduce((a, p) => a + pre.get(p)!, 0)
      const peerCommon = common.reduce((a, p) => a + peer.get(p)!, 0)
      const preTotal = [...pre.values()].reduce((a, b) => a + b, 0)
      // Per file, not only in total: a sum can hide one file that lost (issue 28).
      const larger = common.filter((p) => pre.get(p)! > peer.get(p)!)
      const r = ratio(preCommon, peerCommon)
      // Four decimals and the difference in bytes: both tools use the same zlib, so the ratios
      // sit near 1 and "1.000×" alone would hide which way they lean.
      const delta = preCommon - peerCommon
      const measured = Number.isFinite(r)
        ? `${r.toFixed(4)}× (${delta >= 0 ? '+' : '−'}${fmtInt(Math.abs(delta))} B)`
        : 'n/a'
      rows.push([
        format,
        String(pre.size),
        String(peer.size),
        String(common.length),
        fmtInt(preCommon),
        fmtInt(peerCommon),
        measured,
        String(larger.length),
        `${fmtBytes(preTotal)} / ${fmtBytes(peerTotal)}`,
      ])
      part.targets.push({
        part: 'build',
        target: `${format} bytes ≤ peer's (same files)`,
        measured,
        pass: Number.isFinite(r) ? r <= 1 : undefined,
      })
      part.targets.push({
        part: 'build',
        target: `${format}: no file larger than the peer's`,
        measured: `${larger.length} of ${common.length} larger`,
        pass: common.length > 0 ? larger.length === 0 : undefined,
      })
      if (larger.length)
        notes.push(
          `${format}: larger than the peer's: ${larger
            .slice(0, 6)
            .map((p) => `${p} (+${fmtInt(pre.get(p)! - peer.get(p)!)} B)`)
            .join(', ')}${larger.length > 6 ? `, … ${larger.length - 6} more` : ''}`,
        )
      const onlyPre = [...pre.keys()].filter((p) => !peer.has(p))
      const onlyPeer = [...peer.keys()].filter((p) => !pre.has(p))
      if (onlyPre.length)
        notes.push(`${format}: only preencode wrote ${onlyPre.length}: ${summarize(onlyPre, preFiles)}`)
      if (onlyPeer.length)
        notes.push(`${format}: only the peer wrote ${onlyPeer.length}: ${summarize(onlyPeer, peerFiles)}`)
    }
    if (!preFiles)
      part.targets.push({
        part: 'build',
        target: "bytes per format ≤ peer's",
        why: preencodeWhy ?? 'preencode build failed',
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
      rows,
      notes: [
        'bytes are summed over the originals both tools wrote that variant for; the last column sums every variant each tool wrote',
        'preencode skips files under 1 KiB, variants saving < 5%, and compresses more types (fonts, maps, txt); the peer compresses html/xml/css/json/js/mjs/svg/yaml/toml of any size',
        ...notes,
      ],
    })
  } else {
    part.targets.push({ part: 'build', target: "bytes per format ≤ peer's", why: 'the peer build failed' })
  }
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
