// The per-app table of the build part: for bench/app and each generated app, a cold
// `preencode compress` against its floor, the time preencode() adds to a cold `vite build`
// against the time vite-plugin-compression2 adds, and the bytes per format against the peer's,
// with issue 37's targets for each.
import { availableParallelism } from 'node:os'
import type { Table, TargetCheck } from '../../lib/report.ts'
import { fmtBytes, fmtMs, fmtRatio, ratio } from '../../lib/util.ts'
import { BYTES_TOLERANCE, fmtBytesRatio, withinTolerance } from '../bytes.ts'
import { FLOOR_TARGET } from '../floor/index.ts'
import type { AppSummary } from './measure.ts'

/** Time preencode() adds to a cold build, against the peer's. */
const ADDED_TARGET = 0.6

/** The table and the targets of every app but bench/app (whose targets its own tables set). */
export function appsTable(summaries: AppSummary[]): { table: Table; targets: TargetCheck[] } {
  const targets: TargetCheck[] = []
  const rows = summaries.map((s) => {
    const coldOverFloor = ratio(s.cliMs, s.floorMs)
    const added = ratio(s.addedPreencode, s.addedPeer)
    const formats = ['gzip', 'brotli', 'zstd'].map((f) => s.bytes?.find((b) => b.format === f))
    if (s.app.name !== 'bench/app') {
      const name = s.app.name
      targets.push(
        {
          part: 'build',
          target: `${name}: cold compress ≤ ${FLOOR_TARGET}× the floor`,
          measured: fmtRatio(coldOverFloor),
          pass: Number.isFinite(coldOverFloor) ? coldOverFloor <= FLOOR_TARGET : undefined,
        },
        {
          part: 'build',
          target: `${name}: cold added time ≤ ${ADDED_TARGET}× peer`,
          measured: fmtRatio(added),
          pass: Number.isFinite(added) ? added <= ADDED_TARGET : undefined,
        },
        ...(s.bytes ?? []).map((b) => ({
          part: 'build',
          target: `${name}: ${b.format} bytes within ${BYTES_TOLERANCE * 100}% of the peer's (same files)`,
          measured: fmtBytesRatio(b),
          pass: withinTolerance(b),
        })),
      )
    }
    const floor = s.floor
    return [
      s.app.name,
      floor ? `${floor.encodes / 3} files, ${fmtBytes(floor.bytes)}` : 'n/a',
      floor ? `${fmtMs(floor.longest.ms)} (${floor.longest.format} ${floor.longest.path.split('/').pop()})` : 'n/a',
      fmtMs(s.floorMs),
      fmtMs(s.cliMs),
      fmtRatio(coldOverFloor),
      floor ? fmtRatio(ratio(s.cliCpuMs, floor.cpuMs)) : 'n/a',
      fmtRatio(ratio(s.addedCpuPreencode, s.cliCpuMs)),
      `${fmtMs(s.addedPreencode)} / ${fmtMs(s.addedPeer)}`,
      fmtRatio(added),
      ...formats.map((b) => (b ? fmtBytesRatio(b) : 'n/a')),
    ]
  })
  const table: Table = {
    title: 'Per app: cold compress against the floor, added build time and bytes against the peer',
    columns: [
      'app',
      'compressed (≥ 1 KiB)',
      'longest single encode',
      'floor',
      'compress, cold',
      'cold / floor',
      'CPU: cold / encodes alone',
      'CPU: plugin-added / CLI',
      'added to a cold build: preencode / peer',
      'added ratio',
      'gzip / peer',
      'brotli / peer',
      'zstd / peer',
    ],
    rows,
    notes: [
      `floor = the longer of the longest single encode and the CPU time of all encodes over ${availableParallelism()} cores (each encode run alone, one after the other); on a site whose largest file dominates it is that file's brotli 11`,
      'compress, cold = `preencode compress` with an empty cache on the plain build output (median); added = median build time with the plugin minus the plain build’s median, cold, one child process per build',
      'bytes: preencode’s variants over the peer’s, summed over the files both compressed from the same input',
      'CPU (user + system, every thread) hardly grows with load: "cold / encodes alone" is the CPU of the cold `preencode compress` over the CPU of its encodes run alone (the floor child); "plugin-added / CLI" is the CPU a cold build with preencode() spends beyond the plain build, over the CLI’s',
      ...summaries.map((s) => `${s.app.name}: ${s.app.about}`),
      ...summaries.flatMap((s) => s.errors),
    ],
  }
  return { table, targets }
}
