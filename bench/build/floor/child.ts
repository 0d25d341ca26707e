// Measures the physical floor of a cold compress of one site, in its own process: every encode
// preencode would run (each compressible file >= 1 KiB, each format at the default level), one at
// a time, so each encode's wall time is its CPU time with nothing else competing. Prints JSON:
// the CPU time of all encodes, and the longest single encode (file and format).
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import type { FloorMeasure } from './spec.ts'

const dir = process.argv[2]!
const core = await import('@preencode/core')
const { formats, levels, threshold } = core.DEFAULT_COMPRESS_OPTIONS

const files: string[] = []
const walk = async (d: string): Promise<void> => {
  for (const entry of await readdir(d, { withFileTypes: true })) {
    const full = join(d, entry.name)
    if (entry.isDirectory()) await walk(full)
    else if (entry.isFile()) files.push(relative(dir, full).split(sep).join('/'))
  }
}
await walk(dir)

let cpuMs = 0
let encodes = 0
let bytes = 0
let longest = { ms: 0, path: '', format: '' }
for (const path of files.sort()) {
  if (!core.isCompressible(path) || (await stat(join(dir, path))).size < threshold) continue
  const data = await readFile(join(dir, path))
  bytes += data.byteLength
  for (const format of formats) {
    const before = process.cpuUsage()
    const started = performance.now()
    await core.encodeBuffer(format, data, levels[format]!, { path })
    const wall = performance.now() - started
    const used = process.cpuUsage(before)
    cpuMs += (used.user + used.system) / 1000
    encodes++
    if (wall > longest.ms) longest = { ms: wall, path, format }
  }
}
process.stdout.write(`${JSON.stringify({ cpuMs, encodes, bytes, longest } satisfies FloorMeasure)}\n`)
