import type { BudgetCheck, BudgetResult } from '../options/budgets.js'
import { printablePath } from '../paths.js'
import { formatBytes } from './units.js'

interface Row {
  /** `ok`, `OVER` or `NO MATCH`. */
  status: string
  path: string
  format: string
  size: string
  max: string
  budget: string
}

/**
 * The rows worth showing: every file over budget, the closest file of each budget that holds,
 * and each budget that matched nothing.
 */
function budgetRows(result: BudgetResult): Row[] {
  const row = (check: BudgetCheck): Row => ({
    status: check.over ? 'OVER' : 'ok',
    path: check.path,
    format: check.format,
    size: formatBytes(check.size),
    max: formatBytes(check.max),
    budget: check.budget,
  })
  const rows = result.failures.map(row)
  const failing = new Set(result.failures.map((c) => `${c.budget}\0${c.format}\0${c.max}`))
  const shown = new Set<string>()
  for (const check of result.checks) {
    const key = `${check.budget}\0${check.format}\0${check.max}`
    if (failing.has(key) || shown.has(key)) continue
    shown.add(key)
    rows.push(row(check))
  }
  for (const u of result.unmatched)
    rows.push({ status: 'NO MATCH', path: '-', format: u.format, size: '-', max: formatBytes(u.max), budget: u.budget })
  return rows
}

const HEADER: Row = { status: 'status', path: 'file', format: 'format', size: 'size', max: 'max', budget: 'budget' }
const COLUMNS = ['status', 'path', 'format', 'size', 'max', 'budget'] as const

/** One line of verdict: what a CI log shows first. */
function budgetSummaryLine(result: BudgetResult): string {
  const budgets = new Set(result.checks.map((c) => `${c.budget}\0${c.format}\0${c.max}`)).size + result.unmatched.length
  if (result.ok) return `budgets: ${result.checks.length} files within ${budgets} budgets`
  const parts: string[] = []
  if (result.failures.length > 0) parts.push(`${result.failures.length} of ${result.checks.length} files over budget`)
  if (result.unmatched.length > 0) parts.push(`${result.unmatched.length} budgets match no file`)
  return `budgets: ${parts.join('; ')}`
}

/** An aligned plain-text table (for a terminal or a CI log). Pure. */
export function formatBudgetTable(result: BudgetResult): string {
  const rows = budgetRows(result).map((r) => ({ ...r, path: printablePath(r.path), budget: printablePath(r.budget) }))
  const widths = COLUMNS.map((c) => Math.max(...[HEADER, ...rows].map((r) => r[c].length)))
  const numeric = new Set(['size', 'max'])
  const line = (r: Row): string =>
    `  ${COLUMNS.map((c, i) => (numeric.has(c) ? r[c].padStart(widths[i]!) : r[c].padEnd(widths[i]!))).join('  ')}`.trimEnd()
  return [budgetSummaryLine(result), line(HEADER), ...rows.map(line)].join('\n')
}

/** The same table in GitHub-flavoured Markdown, for `$GITHUB_STEP_SUMMARY`. Pure. */
export function formatBudgetMarkdown(result: BudgetResult): string {
  const cell = (text: string): string => printablePath(text).replace(/\|/g, '\\|').replace(/`/g, "'")
  const lines = [
    `### preencode ${result.ok ? '✅' : '❌'} ${budgetSummaryLine(result)}`,
    '',
    '| status | file | format | size | max | budget |',
    '|---|---|---|--:|--:|---|',
  ]
  for (const r of budgetRows(result)) {
    lines.push(
      `| ${r.status === 'ok' ? 'ok' : `**${r.status}**`} | \`${cell(r.path)}\` | ${r.format} | ${r.size} | ${r.max} | \`${cell(r.budget)}\` |`,
    )
  }
  return `${lines.join('\n')}\n`
}
