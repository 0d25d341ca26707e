// The runtimes part's tables and targets: requests/s and bytes of each handler, then the
// preencode handler ÷ the runtime's own, per file (issue 26 item 6: ≥ 0.9× while sending fewer bytes).
import type { Table, TargetCheck } from '../lib/report.ts'
import { fmtInt, fmtRatio, lowerMedian as median } from '../lib/util.ts'
import type { Probe, WrkResult } from '../lib/wrk.ts'
import { RUNTIME_PAIRS, type Mode } from './servers.ts'

/** One handler on one runtime serving one file. */
export interface Cell {
  probe?: Probe
  runs: WrkResult[]
  error?: string
}

type Lookup = (pair: string, mode: Mode, path: string) => Cell | undefined

const MIN_RPS_RATIO = 0.9

const medianRps = (cell: Cell): number => median(cell.runs.map((r) => r.rps))
const medianBytes = (cell: Cell): number => median(cell.runs.map((r) => r.bytesPerResponse))
const usable = (cell: Cell | undefined): cell is Cell => Boolean(cell && !cell.error && cell.runs.length > 0)

/** preencode ÷ own within each round (both measured in it). */
function roundRatios(a: Cell, b: Cell): number[] {
  const n = Math.min(a.runs.length, b.runs.length)
  return Array.from({ length: n }, (_, i) => a.runs[i]!.rps / b.runs[i]!.rps)
}

export function runtimeTables(
  files: { label: string; path: string; bytes: number }[],
  cell: Lookup,
  missing: Map<string, string>,
  how: { wrk: string; rounds: number },
): { tables: Table[]; targets: TargetCheck[] } {
  const rows: string[][] = []
  const ratioRows: string[][] = []
  const targets: TargetCheck[] = []
  for (const pair of RUNTIME_PAIRS) {
    for (const file of files) {
      const why = missing.get(pair.id)
      for (const mode of ['preencode', 'own'] as const) {
        const name = `${pair.label}: ${mode === 'preencode' ? 'preencode handler' : pair.own}`
        const c = cell(pair.id, mode, file.path)
        if (why || !usable(c)) {
          rows.push([name, file.label, why ?? `failed: ${c?.error ?? 'no run'}`, '', '', '', ''])
          continue
        }
        const rps = c.runs.map((r) => r.rps)
        rows.push([
          name,
          file.label,
          c.probe?.contentEncoding ?? '?',
          fmtInt(c.probe?.bodyBytes ?? Number.NaN),
          fmtInt(medianBytes(c)),
          fmtInt(medianRps(c)),
          `${fmtInt(Math.min(...rps))}–${fmtInt(Math.max(...rps))}`,
        ])
      }
      const a = cell(pair.id, 'preencode', file.path)
      const b = cell(pair.id, 'own', file.path)
      const target = `${pair.label}: preencode handler ≥ ${MIN_RPS_RATIO}× ${pair.own}, fewer bytes (${file.label})`
      if (why || !usable(a) || !usable(b)) {
        ratioRows.push([`${pair.label}: preencode / ${pair.own}`, file.label, 'n/a', 'n/a'])
        targets.push({ part: 'runtimes', target, why: why ?? 'a measurement failed' })
        continue
      }
      const rounds = roundRatios(a, b)
      const rps = median(rounds)
      const bytes = medianBytes(a) / medianBytes(b)
      const spread = rounds.length > 1 ? ` (${fmtRatio(Math.min(...rounds))}–${fmtRatio(Math.max(...rounds))})` : ''
      ratioRows.push([
        `${pair.label}: preencode / ${pair.own}`,
        file.label,
        `${fmtRatio(rps)}${spread}`,
        fmtRatio(bytes),
      ])
      targets.push({
        part: 'runtimes',
        target,
        measured: `${fmtRatio(rps)} requests/s, ${fmtRatio(bytes)} bytes`,
        pass: rps >= MIN_RPS_RATIO && bytes < 1,
      })
    }
  }
  const measured: Table = {
    title: `Requests per second and bytes per response (${how.wrk}, loopback; median of ${how.rounds} round(s))`,
    columns: ['runtime and handler', 'file', 'Content-Encoding', 'body bytes', 'bytes/response', 'requests/s', 'range'],
    rows,
    notes: [
      ...files.map((f) => `${f.label}: ${f.path}, ${fmtInt(f.bytes)} B uncompressed`),
      'each handler at its defaults: none of the runtimes’ own handlers reads the `.br` siblings unless told to',
      'wrk and the server share the same 2 cores; each runtime is one process (no cluster)',
    ],
  }
  const ratios: Table = {
    title: 'The preencode handler ÷ the runtime’s own static handler (requests/s: median of per-round ratios, range)',
    columns: ['comparison', 'file', 'requests/s', 'bytes/response'],
    rows: ratioRows,
  }
  return { tables: [measured, ratios], targets }
}
