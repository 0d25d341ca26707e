// The runtimes part's tables and targets: requests/s and bytes of each handler, then the
// preencode handler ÷ the runtime's own, per file (issue 26 item 6: ≥ 0.9× while sending fewer bytes).
import type { Table, TargetCheck } from '../lib/report.ts'
import { fmtInt, fmtRatio, lowerMedian as median } from '../lib/util.ts'
import type { Probe, WrkResult } from '../lib/wrk.ts'
import { type Mode, modesOf, RUNTIME_PAIRS, type RuntimePair } from './servers.ts'

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

/** The name of a handler in the tables. */
function handlerName(pair: RuntimePair, mode: Mode): string {
  const name = { preencode: 'preencode handler', own: pair.own, stored: pair.stored ?? '' }[mode]
  return `${pair.label}: ${name}`
}

/**
 * The ratio row and target of the preencode handler against `peer`: against the runtime's own
 * handler of the originals (`own`) it must be ≥ 0.9× while sending fewer bytes; against the
 * same stored bytes (`stored`), ≥ 0.9× with the same bytes.
 */
function ratioOf(
  pair: RuntimePair,
  peer: Exclude<Mode, 'preencode'>,
  file: { label: string; path: string },
  cell: Lookup,
  why: string | undefined,
): { row: string[]; target: TargetCheck } {
  const peerName = peer === 'own' ? pair.own : (pair.stored ?? '')
  const bytesRule = peer === 'own' ? ', fewer bytes' : ', same bytes'
  const target = `${pair.label}: preencode handler ≥ ${MIN_RPS_RATIO}× ${peerName}${bytesRule} (${file.label})`
  const a = cell(pair.id, 'preencode', file.path)
  const b = cell(pair.id, peer, file.path)
  const comparison = `${pair.label}: preencode / ${peerName}`
  if (why || !usable(a) || !usable(b))
    return {
      row: [comparison, file.label, 'n/a', 'n/a'],
      target: { part: 'runtimes', target, why: why ?? 'a measurement failed' },
    }
  const rounds = roundRatios(a, b)
  const rps = median(rounds)
  const bytes = medianBytes(a) / medianBytes(b)
  const spread = rounds.length > 1 ? ` (${fmtRatio(Math.min(...rounds))}–${fmtRatio(Math.max(...rounds))})` : ''
  const bytesOk = peer === 'own' ? bytes < 1 : Math.abs(bytes - 1) < 0.01
  return {
    row: [comparison, file.label, `${fmtRatio(rps)}${spread}`, fmtRatio(bytes)],
    target: {
      part: 'runtimes',
      target,
      measured: `${fmtRatio(rps)} requests/s, ${fmtRatio(bytes)} bytes`,
      pass: rps >= MIN_RPS_RATIO && bytesOk,
    },
  }
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
      for (const mode of modesOf(pair)) {
        const c = cell(pair.id, mode, file.path)
        if (why || !usable(c)) {
          rows.push([handlerName(pair, mode), file.label, why ?? `failed: ${c?.error ?? 'no run'}`, '', '', '', ''])
          continue
        }
        const rps = c.runs.map((r) => r.rps)
        rows.push([
          handlerName(pair, mode),
          file.label,
          c.probe?.contentEncoding ?? '?',
          fmtInt(c.probe?.bodyBytes ?? Number.NaN),
          fmtInt(medianBytes(c)),
          fmtInt(medianRps(c)),
          `${fmtInt(Math.min(...rps))}–${fmtInt(Math.max(...rps))}`,
        ])
      }
      for (const peer of modesOf(pair).filter((m): m is Exclude<Mode, 'preencode'> => m !== 'preencode')) {
        const { row, target } = ratioOf(pair, peer, file, cell, why)
        ratioRows.push(row)
        targets.push(target)
      }
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
    title:
      'The preencode handler ÷ the runtime’s own static handler, of the originals and (Bun) of the same stored .br (requests/s: median of per-round ratios, range)',
    columns: ['comparison', 'file', 'requests/s', 'bytes/response'],
    rows: ratioRows,
  }
  return { tables: [measured, ratios], targets }
}
