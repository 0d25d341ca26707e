import { appendFile } from 'node:fs/promises'
import { type ErrorComponent, userError } from '../errors.js'
import { formatBudgetMarkdown, formatBudgetTable } from './budget-report.js'
import type { CompressReport } from './report.js'

/**
 * In GitHub Actions, appends Markdown to the job's summary page (the file named by
 * `$GITHUB_STEP_SUMMARY`); elsewhere does nothing. Returns whether it wrote.
 * https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-job-summary
 */
export async function appendGithubStepSummary(
  markdown: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  const file = env.GITHUB_STEP_SUMMARY
  if (!file) return false
  await appendFile(file, markdown.endsWith('\n') ? `${markdown}\n` : `${markdown}\n\n`)
  return true
}

export interface EnforceBudgetsOptions {
  /** Names the entry point in the error (`cli`, `vite`). @default 'core' */
  component?: ErrorComponent
  /** Where the budgets were set, for the message. @default 'the `budgets` option' */
  source?: string | undefined
  env?: NodeJS.ProcessEnv
}

/**
 * The one budget check of every entry point, run by the build runner: the verdict goes to the
 * GitHub job summary (in Actions), and a failure becomes a user error (a non-zero exit, a failed
 * build) whose first line counts the failures and whose rest is the table. No budgets: nothing.
 */
export async function enforceBudgets(report: CompressReport, options: EnforceBudgetsOptions = {}): Promise<void> {
  const result = report.budgets
  if (!result) return
  await appendGithubStepSummary(formatBudgetMarkdown(result), options.env)
  if (result.ok) return
  const what = [
    result.failures.length > 0 ? `${result.failures.length} files over budget` : '',
    result.unmatched.length > 0 ? `${result.unmatched.length} budgets match no file` : '',
  ]
    .filter(Boolean)
    .join(', ')
  throw userError(
    options.component ?? 'core',
    `Size budgets failed: ${what} in ${report.dir} (budgets are set in ${options.source ?? 'the `budgets` option'}):\n${formatBudgetTable(result)}`,
    { code: 'OVER_BUDGET' },
  )
}
