import { createFilter, type FilterPattern } from '@rollup/pluginutils'
import { ALL_FORMATS, type Format, isFormat, PREFERRED_FORMAT } from '../codecs/table.js'
import { userError } from '../errors.js'
import { KEY_LABEL, type OptionLabel } from './option-label.js'

/** Which bytes a budget limits: a variant's, or the original's. */
export type BudgetFormat = Format | 'original'

/** A size budget: every file matching `path` must stay at or under `max` in `format`. */
export interface SizeBudget {
  /**
   * Which files: a glob (or RegExp, or a list of them) tested against the path relative to the
   * output folder, e.g. `'assets/*.js'`, `'**\/*.html'`, `/^index\.html$/`.
   */
  path: FilterPattern
  /**
   * Which bytes count. A file with no variant of this format (too small, no saving) is sent
   * as it is, so its original size counts.
   * @default 'brotli'
   */
  format?: BudgetFormat
  /** The most bytes allowed per file: a number of bytes, or `'150 kB'`, `'1.5 MB'`, `'200 KiB'`. */
  max: number | string
}

export interface ResolvedBudget {
  /** The pattern as written, for the table. */
  label: string
  format: BudgetFormat
  /** Bytes. */
  max: number
  matches: (path: string) => boolean
}

/** One file measured against one budget. */
export interface BudgetCheck {
  /** The budget's pattern as written. */
  budget: string
  format: BudgetFormat
  path: string
  size: number
  max: number
  over: boolean
}

/** The size budgets' verdict for one run: every check, the failures, the budgets that matched no file. */
export interface BudgetResult {
  /** Every file matched by a budget, largest share of its budget first. */
  checks: BudgetCheck[]
  /** The checks that are over their budget. */
  failures: BudgetCheck[]
  /** Budgets no file matched: usually a typo in the pattern, so they fail the check too. */
  unmatched: { budget: string; format: BudgetFormat; max: number }[]
  /** True when nothing is over budget and every budget matched a file. */
  ok: boolean
}

const UNITS: Readonly<Record<string, number>> = {
  b: 1,
  k: 1000,
  kb: 1000,
  m: 1e6,
  mb: 1e6,
  g: 1e9,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
}
const BUDGET_FORMATS: readonly BudgetFormat[] = ['original', ...ALL_FORMATS]

/**
 * `'150 kB'` -> 150000. Decimal units as the report prints them (kB = 1000 B, MB = 10^6 B);
 * `KiB`/`MiB` for binary ones. `name` names the option in the error, as a label does.
 */
export function parseByteSize(value: number | string, name: string): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= 0) return Math.floor(value)
  } else {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value)
    const unit = UNITS[(match?.[2] || 'b').toLowerCase()]
    if (match && unit !== undefined) return Math.floor(Number(match[1]) * unit)
  }
  throw userError(
    'options',
    `${name} is ${JSON.stringify(value)}; use a number of bytes or a size like '150 kB', '1.5 MB', '200 KiB'.`,
  )
}

/** Validates `budgets`, naming the entry and field at fault (`label('budgets[0].max')`). */
export function resolveBudgets(budgets: unknown, label: OptionLabel = KEY_LABEL): ResolvedBudget[] {
  if (budgets === undefined) return []
  if (!Array.isArray(budgets))
    throw userError(
      'options',
      `${label('budgets')} must be an array of { path, format, max }, e.g. [{ path: 'assets/*.js', format: 'brotli', max: '150 kB' }].`,
    )
  return budgets.map((entry: unknown, index): ResolvedBudget => {
    const where = `budgets[${index}]`
    if (entry === null || typeof entry !== 'object')
      throw userError(
        'options',
        `${label(where)} must be an object like { path: 'assets/*.js', format: 'brotli', max: '150 kB' }.`,
      )
    const { path, format = PREFERRED_FORMAT, max, ...rest } = entry as Partial<SizeBudget>
    const unknown = Object.keys(rest)
    if (unknown.length > 0)
      throw userError(
        'options',
        `${label(where)} has unknown field \`${unknown[0]}\`; a budget has path, format and max.`,
      )
    if (!isPattern(path))
      throw userError(
        'options',
        `${label(`${where}.path`)} must be a glob (e.g. 'assets/*.js'), a RegExp, or a list of them.`,
      )
    if (format !== 'original' && !isFormat(format))
      throw userError(
        'options',
        `${label(`${where}.format`)} is ${JSON.stringify(format)}; accepted: ${BUDGET_FORMATS.join(', ')}.`,
      )
    if (max === undefined) throw userError('options', `${label(`${where}.max`)} is missing; e.g. max: '150 kB'.`)
    return {
      label: [path].flat().map(String).join(', '),
      format,
      max: parseByteSize(max, label(`${where}.max`)),
      matches: createFilter(path, null, { resolve: false }),
    }
  })
}

function isPattern(value: unknown): value is FilterPattern {
  const one = (v: unknown): boolean => (typeof v === 'string' && v !== '') || v instanceof RegExp
  return one(value) || (Array.isArray(value) && value.length > 0 && value.every(one))
}
