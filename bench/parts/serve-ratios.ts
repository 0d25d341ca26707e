// The serving part's ratios and targets (issue 9): requests/s of the generated configs against
// hand-written static and on-the-fly compression, bytes per response, and server CPU per request.
import type { Table, TargetCheck } from '../lib/report.ts'
import { fmtRatio, ratio } from '../lib/util.ts'
import type { ConfigId, ServerConfig } from './serve-configs.ts'

/** Median measurements of one configuration and file (NaN when missing). */
export interface ServingValues {
  rps(id: ConfigId, path: string): number
  bytes(id: ConfigId, path: string): number
  /** Server CPU seconds per request. */
  cpu(id: ConfigId, path: string): number
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
    const cells = files.map((f) => ratio(rps(c.a, f.path), rps(c.b, f.path)))
    ratioRows.push([c.label, ...cells.map(fmtRatio)])
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
                measured: fmtRatio(r),
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
      ...files.map((f) => fmtRatio(ratio(cpu('nginx-static', f.path), cpu(id, f.path)))),
    ]),
    ...(['apache-generated-htaccess', 'apache-generated-vhost'] as ConfigId[]).map((id) => [
      `server CPU per request: mod_deflate ÷ ${configs.find((c) => c.id === id)!.label}`,
      ...files.map((f) => fmtRatio(ratio(cpu('apache-deflate', f.path), cpu(id, f.path)))),
    ]),
    [
      'server CPU per request: Apache generated vhost ÷ Apache generated .htaccess (what the per-request .htaccess parse leaves)',
      ...files.map((f) =>
        fmtRatio(ratio(cpu('apache-generated-vhost', f.path), cpu('apache-generated-htaccess', f.path))),
      ),
    ],
  )
  return {
    targets,
    table: {
      title: 'Serving ratios (requests/s unless marked bytes or CPU)',
      columns: ['ratio', ...files.map((f) => f.label)],
      rows: ratioRows,
    },
  }
}
