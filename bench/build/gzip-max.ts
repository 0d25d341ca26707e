// gzip 'max' (issue 28): over the plain build's compressible files, the bytes of gzip 'max'
// against zlib 9 (both through preencode's own encoder: zlib 9 at memLevel 8), and
// the CPU time each took. Measured in this process, one file after the other.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { PartResult } from '../lib/report.ts'
import { fmtInt, fmtMs, listFiles } from '../lib/util.ts'

type Core = typeof import('@preencode/core')

/** The issue's bar: zopfli-class gzip at most this share of zlib 9's bytes. */
const GZIP_MAX_TARGET = 0.965

export async function measureGzipMax(part: PartResult, core: Core, site: string): Promise<void> {
  const { threshold } = core.DEFAULT_COMPRESS_OPTIONS
  let files = 0
  const bytes = { original: 0, zlib9: 0, max: 0 }
  const cpuMs = { zlib9: 0, max: 0 }
  for (const [path, size] of [...(await listFiles(site))].sort()) {
    if (!core.isCompressible(path) || size < threshold) continue
    const data = await readFile(join(site, path))
    files++
    bytes.original += size
    for (const [name, level] of [
      ['zlib9', 9],
      ['max', core.CODECS.gzip.maxLevel],
    ] as const) {
      const before = process.cpuUsage()
      bytes[name] += (await core.encodeBuffer('gzip', data, level)).byteLength
      const used = process.cpuUsage(before)
      cpuMs[name] += (used.user + used.system) / 1000
    }
  }
  const ratio = bytes.max / bytes.zlib9
  part.tables.push({
    title: "gzip 'max' (zopfli-class) against zlib 9",
    columns: ['gzip', 'bytes', 'of zlib 9', 'CPU'],
    rows: [
      ['zlib 9 (memLevel 8, what preencode writes by default)', fmtInt(bytes.zlib9), '1.000×', fmtMs(cpuMs.zlib9)],
      ["'max' (zlib 9 and libdeflate 12, the smallest)", fmtInt(bytes.max), `${ratio.toFixed(3)}×`, fmtMs(cpuMs.max)],
    ],
    notes: [
      `the plain build's ${files} compressible files ≥ ${threshold} B (${fmtInt(bytes.original)} B), each encoded alone in this process; CPU is user + system time`,
    ],
  })
  part.targets.push({
    part: 'build',
    target: `gzip 'max' ≤ ${GZIP_MAX_TARGET}× zlib 9 (same files)`,
    measured: `${ratio.toFixed(3)}×`,
    pass: files > 0 ? ratio <= GZIP_MAX_TARGET : undefined,
  })
}
