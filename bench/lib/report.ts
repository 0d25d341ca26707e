// What every part returns, and how it is rendered: a plain-text table for the terminal and a
// Markdown table for docs/benchmarks.md. Pure functions; run.ts does the printing and writing.

export interface Table {
  title: string
  columns: string[]
  rows: string[][]
  /** Lines printed under the table: methodology, file-set differences, caveats. */
  notes?: string[]
}

/** A target from the issues, next to the ratio measured in this run. */
export interface TargetCheck {
  part: string
  target: string
  /** The measured value as printed, e.g. `0.42×`; undefined when it could not be measured. */
  measured?: string
  pass?: boolean
  /** Why it was not measured, when it was not. */
  why?: string
}

export interface PartResult {
  name: string
  title: string
  /** What the part measures and how, for the Markdown page. */
  description?: string
  /** Highest 1-minute load average sampled while this part ran (set by run.ts). */
  loadPeak?: number
  /** Set when the part did not run at all; the reason is printed and written. */
  skipped?: string
  tables: Table[]
  targets: TargetCheck[]
  notes: string[]
  /** Charts written beside the Markdown page (`file` relative to it) and shown under the tables. */
  figures?: Figure[]
}

/** A standalone SVG document the page links as an image. */
export interface Figure {
  /** File name beside the page, e.g. `benchmarks-history-npm-docs.svg`. */
  file: string
  alt: string
  svg: string
}

export function emptyPart(name: string, title: string): PartResult {
  return { name, title, tables: [], targets: [], notes: [] }
}

function renderTextTable(table: Table): string {
  const widths = table.columns.map((c, i) => Math.max(c.length, ...table.rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  const out = [table.title, line(table.columns), widths.map((w) => '-'.repeat(w)).join('  '), ...table.rows.map(line)]
  for (const note of table.notes ?? []) out.push(`  note: ${note}`)
  return out.join('\n')
}

export function renderMarkdownTable(table: Table): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|')
  const out = [
    `| ${table.columns.map(esc).join(' | ')} |`,
    `| ${table.columns.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...table.rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ]
  const notes = (table.notes ?? []).map((n) => `- ${n}`)
  return [`#### ${table.title}`, '', ...out, ...(notes.length ? ['', ...notes] : [])].join('\n')
}

function renderTargetsText(targets: TargetCheck[]): string {
  return targets
    .map((t) => `  ${mark(t)}  ${t.target}: ${t.measured ?? `not measured (${t.why ?? 'unknown'})`}`)
    .join('\n')
}

function mark(t: TargetCheck): string {
  if (t.pass === undefined) return 'n/a '
  return t.pass ? 'pass' : 'MISS'
}

export function renderPartText(part: PartResult): string {
  const head = `== ${part.title} ==`
  if (part.skipped) return `${head}\nskipped: ${part.skipped}`
  const body = part.tables.map(renderTextTable)
  if (part.targets.length) body.push(`targets:\n${renderTargetsText(part.targets)}`)
  for (const note of part.notes) body.push(`note: ${note}`)
  return [head, ...body].join('\n\n')
}
