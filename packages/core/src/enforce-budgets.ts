import { appendFile } from 'node:fs/promises'
import { formatBudgetMarkdown, formatBudgetTable } from './budget-report.js'
import { userError, type ErrorComponent } from './errors.js'
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

/**
 * What the CLI and the plugins do with `report.budgets` after a run: the verdict goes to the
 * GitHub job summary (in Actions), and a failure becomes a user error carrying the table (a
 * non-zero exit, a failed build). No budgets: nothing happens.
 */
export async function enforceBudgets(
  report: CompressReport,
  component: ErrorComponent,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const result = report.budgets
  if (!result) return
  await appendGithubStepSummary(formatBudgetMarkdown(result), env)
  if (result.ok) return
  throw userError(component, `Size budgets failed in ${report.dir}:\n${formatBudgetTable(result)}`, {
    code: 'OVER_BUDGET',
  })
}
