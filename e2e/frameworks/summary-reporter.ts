// Playwright reporter: after the run's own summary, one line per framework fixture checked in
// this run (summary.ts), so the last screen says, per tool, files complete / stale. Prints
// nothing when no framework was checked. Listed in playwright.config.ts and scripts/test.mjs.
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter'
import { type FolderSummary, SUMMARY_ATTACHMENT, summaryLine } from './summary.ts'

export default class FrameworkSummaryReporter implements Reporter {
  private readonly summaries = new Map<string, FolderSummary>()

  onTestEnd(_test: TestCase, result: TestResult): void {
    for (const attachment of result.attachments) {
      if (attachment.name !== SUMMARY_ATTACHMENT || !attachment.body) continue
      const summary = JSON.parse(attachment.body.toString()) as FolderSummary
      this.summaries.set(summary.name, summary)
    }
  }

  onEnd(): void {
    if (this.summaries.size === 0) return
    const lines = [...this.summaries.values()].map(summaryLine)
    process.stdout.write(`\nframework fixtures, the deployed folder as each build left it:\n${lines.join('\n')}\n`)
  }

  printsToStdio(): boolean {
    return false
  }
}
