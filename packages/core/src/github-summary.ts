import { appendFile } from 'node:fs/promises'

/**
 * In GitHub Actions, appends Markdown to the job's summary page (the file named by
 * `$GITHUB_STEP_SUMMARY`); elsewhere does nothing. Returns whether it wrote.
 * https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-job-summary
 */
export async function appendGithubStepSummary(markdown: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const file = env.GITHUB_STEP_SUMMARY
  if (!file) return false
  await appendFile(file, markdown.endsWith('\n') ? `${markdown}\n` : `${markdown}\n\n`)
  return true
}
