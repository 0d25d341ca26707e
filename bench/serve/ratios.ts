// The serving part's ratios and targets (issue 9): requests/s of the generated configs against
// hand-written static and on-the-fly compression, bytes per response, and server CPU per request.
import type { Table, TargetCheck } from '../lib/report.ts'
import { fmtRatio, lowerMedian as median, ratio } from '../lib/util.ts'
import type { ConfigId, ServerConfig } from './configs.ts'

/** The measurements of one run of the serving part. */
export interface ServingValues {
  /** Requests/s of a ÷ b within each round, one ratio per round (empty when missing). */
  rps(a: ConfigId, b: ConfigId, path: string): number[]
  /** Median bytes per response (NaN when missing). */
  bytes(id: ConfigId, path: string): number
  /** Server CPU per request of b ÷ a within each round (so higher is better, as with requests/s). */
  cpu(a: ConfigId, b: ConfigId, path: string): number[]
}

/** The median of per-round ratios, with their range when there are several. */
function fmtRounds(ratios: number[]): string {
  const m = fmtRatio(median(ratios))
  return ratios.length > 1 ? `${m} (${fmtRatio(Math.min(...ratios))}–${fmtRatio(Math.max(...ratios))})` : m
}

export function servingRatios(
  configs: ServerConfig[],
  files: { label: string; path: string }[],
  { rps, bytes, cpu }: ServingValues,
): { table: Table; targets: TargetCheck[] } {
  const targets: TargetCheck[] = []
  // Targets of issue 9: the content-independent configs (the default form, committed once).
  const comparisons: Array<{ label: string; a: ConfigId; b: ConfigId; min?: number; target?: string }> = [
    {
      label: 'generated nginx (stock, the default) / hand-written static',
      a: 'nginx-generated-stock',
      b: 'nginx-static',
      min: 0.9,
      target: 'generated nginx (stock) ≥ 0.9× hand-written static',
    },
    {
      label: 'generated nginx (stock, the default) / on-the-fly gzip 6',
      a: 'nginx-generated-stock',
      b: 'nginx-onthefly',
      min: 100,
      target: 'generated nginx (stock) ≥ 100× on-the-fly gzip',
    },
    {
      label: 'generated nginx (modules) / hand-written static',
      a: 'nginx-generated-modules',
      b: 'nginx-static',
      min: 0.9,
      target: 'generated nginx (modules) ≥ 0.9× hand-written static',
    },
    {
      label: 'generated nginx (modules) / on-the-fly gzip 6',
      a: 'nginx-generated-modules',
      b: 'nginx-onthefly',
      min: 100,
      target: 'generated nginx (modules) ≥ 100× on-the-fly gzip',
    },
    { label: 'hand-written static / on-the-fly gzip 6', a: 'nginx-static', b: 'nginx-onthefly' },
    {
      label: 'generated Apache (.htaccess) / mod_deflate',
      a: 'apache-generated-htaccess',
      b: 'apache-deflate',
      min: 40,
      target: 'generated Apache (.htaccess) ≥ 40× mod_deflate',
    },
    {
      label: 'generated Apache (vhost) / mod_deflate',
      a: 'apache-generated-vhost',
      b: 'apache-deflate',
      min: 40,
      target: 'generated Apache (vhost) ≥ 40× mod_deflate',
    },
  ]
  const ratioRows: string[][] = []
  for (const c of comparisons) {
    const rounds = files.map((f) => rps(c.a, c.b, f.path))
    const cells = rounds.map(median)
    ratioRows.push([c.label, ...rounds.map(fmtRounds)])
    if (c.target && c.min !== undefined) {
      files.forEach((f, i) => {
        const r = cells[i]!
        const why =
          configs.find((x) => x.id === c.a)?.skip ?? configs.find((x) => x.id === c.b)?.skip ?? 'a measurement failed'
        targets.push(
          Number.isFinite(r)
            ? {
                part: 'serve',
                target: `${c.target} (${f.label}, requests/s)`,
                measured: fmtRounds(rounds[i]!),
                pass: r >= c.min!,
              }
            : { part: 'serve', target: `${c.target} (${f.label}, requests/s)`, why },
        )
      })
    }
  }
  ratioRows.push(
    ...(['nginx-static', 'nginx-generated-modules', 'nginx-generated-stock'] as ConfigId[]).map((id) => [
      `bytes/response: ${configs.find((c) => c.id === id)!.label} / on-the-fly gzip 6`,
      ...files.map((f) => fmtRatio(ratio(bytes(id, f.path), bytes('nginx-onthefly', f.path)))),
    ]),
    [
      'bytes/response: generated Apache (.htaccess) / mod_deflate',
      ...files.map((f) => fmtRatio(ratio(bytes('apache-generated-htaccess', f.path), bytes('apache-deflate', f.path)))),
    ],
  )
  // The same comparisons in server CPU per request (hand-written ÷ generated, so higher is better
  // as with requests/s): what the config costs the server, much less moved by other load.
  ratioRows.push(
    ...(['nginx-generated-stock', 'nginx-generated-modules'] as ConfigId[]).map((id) => [
      `server CPU per request: hand-written static ÷ ${configs.find((c) => c.id === id)!.label} (≥ 1 = as cheap)`,
      ...files.map((f) => fmtRounds(cpu(id, 'nginx-static', f.path))),
    ]),
    ...(['apache-generated-htaccess', 'apache-generated-vhost'] as ConfigId[]).map((id) => [
      `server CPU per request: mod_deflate ÷ ${configs.find((c) => c.id === id)!.label}`,
      ...files.map((f) => fmtRounds(cpu(id, 'apache-deflate', f.path))),
    ]),
    [
      'server CPU per request: Apache generated vhost ÷ Apache generated .htaccess (what the per-request .htaccess parse leaves)',
      ...files.map((f) => fmtRounds(cpu('apache-generated-htaccess', 'apache-generated-vhost', f.path))),
    ],
  )
  return {
    targets,
    table: {
      title:
        'Serving ratios (requests/s unless marked bytes or CPU): the median of the ratios within each round, and their range',
      columns: ['ratio', ...files.map((f) => f.label)],
      rows: ratioRows,
    },
  }
}
