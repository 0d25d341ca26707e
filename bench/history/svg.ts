// A line chart as a standalone SVG document: one polyline per series over the same x labels,
// a linear y axis from 0 with a few ticks, a legend. Pure: the caller writes the text.

interface Series {
  name: string
  /** One value per x label; a non-finite value breaks the line there (no point drawn). */
  values: readonly number[]
  color: string
}

export interface LineChart {
  title: string
  xLabel: string
  /** Formats a y value for the axis ticks (e.g. bytes as KiB). */
  formatY(value: number): string
  /** Ticks fall on round multiples of this unit (1024 for bytes shown in KiB/MiB). @default 1 */
  yUnit?: number
  xLabels: readonly string[]
  series: readonly Series[]
}

const W = 760
const H = 360
const PAD = { left: 78, right: 16, top: 72, bottom: 78 }

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** A round step (in whole `unit`s, or powers of 1024 of it) giving about `count` ticks up to `max`. */
function tickStep(max: number, count: number, unit: number): number {
  if (unit > 1 && max < unit) return tickStep(max, count, 1)
  if (unit > 1 && max / unit >= unit) return unit * tickStep(max / unit, count, unit)
  if (unit > 1) return unit * tickStep(max / unit, count, 1)
  const raw = max / count
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  return ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude
}

export function renderLineChart(chart: LineChart): string {
  const finite = chart.series.flatMap((s) => s.values.filter(Number.isFinite))
  const step = tickStep(Math.max(1, ...finite), 5, chart.yUnit ?? 1)
  const top = Math.max(step, Math.ceil(Math.max(1, ...finite) / step) * step)
  const plotW = W - PAD.left - PAD.right
  const plotH = H - PAD.top - PAD.bottom
  const n = chart.xLabels.length
  const x = (i: number): number => PAD.left + (n > 1 ? (i / (n - 1)) * plotW : plotW / 2)
  const y = (v: number): number => PAD.top + plotH - (v / top) * plotH
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="11" role="img">`,
    `<title>${esc(chart.title)}</title>`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${esc(chart.title)}</text>`,
  ]
  for (let v = 0; v <= top + step / 2; v += step) {
    out.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>`,
      `<text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${esc(chart.formatY(v))}</text>`,
    )
  }
  const every = Math.max(1, Math.ceil(n / 12))
  for (const [i, label] of chart.xLabels.entries()) {
    if (i % every !== 0 && i !== n - 1) continue
    const lx = x(i).toFixed(1)
    out.push(
      `<text x="${lx}" y="${H - PAD.bottom + 14}" text-anchor="end" transform="rotate(-40 ${lx} ${H - PAD.bottom + 14})">${esc(label)}</text>`,
    )
  }
  out.push(`<text x="${PAD.left + plotW / 2}" y="${H - 8}" text-anchor="middle">${esc(chart.xLabel)}</text>`)
  for (const [k, s] of chart.series.entries()) {
    const points = s.values.map((v, i) => (Number.isFinite(v) ? `${x(i).toFixed(1)},${y(v).toFixed(1)}` : undefined))
    const runs: string[][] = [[]]
    for (const p of points) {
      if (p === undefined) runs.push([])
      else runs.at(-1)!.push(p)
    }
    for (const run of runs.filter((r) => r.length))
      out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${run.join(' ')}"/>`)
    for (const p of points.filter((q) => q !== undefined)) {
      const [cx, cy] = p.split(',')
      out.push(`<circle cx="${cx}" cy="${cy}" r="2.5" fill="${s.color}"/>`)
    }
    // The legend: two columns above the plot, clear of the lines.
    const lx = PAD.left + (k % 2) * 330
    const ly = 36 + Math.floor(k / 2) * 15
    out.push(
      `<line x1="${lx}" x2="${lx + 20}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"/>`,
      `<text x="${lx + 26}" y="${ly + 4}">${esc(s.name)}</text>`,
    )
  }
  out.push('</svg>')
  return `${out.join('\n')}\n`
}
