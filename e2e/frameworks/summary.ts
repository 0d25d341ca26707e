// The per-tool line the framework suite ends with: what each build left in the folder it deploys
// (files complete / stale), attached by each framework's first check and printed by
// summary-reporter.ts after Playwright's own summary, so it is the last screen of a run.
import type { TestInfo } from '@playwright/test'
import type { BuildResult } from './builds.ts'
import type { DeployedFolder } from './deployed.ts'
import type { Framework } from './list.ts'

/** The attachment's name: the reporter collects every one of them. */
export const SUMMARY_ATTACHMENT = 'deployed folder'

/** One tool's line of the summary, as attached (JSON). */
export interface FolderSummary {
  name: string
  out: string
  /** The build's exit code. */
  status: number | null
  seconds: number
  /** Undefined when the build left no folder to look at. */
  eligible?: number
  complete?: number
  stale?: number
}

/** Attaches what `build` left in the deployed folder, as the build left it. */
export async function attachSummary(
  testInfo: TestInfo,
  framework: Framework,
  build: BuildResult,
  folder: DeployedFolder | undefined,
): Promise<void> {
  const summary: FolderSummary = {
    name: framework.name,
    out: framework.out,
    status: build.status,
    seconds: build.seconds,
    ...(folder && {
      eligible: folder.eligible.length,
      complete: folder.eligible.length - folder.missing.length,
      stale: folder.stale.length,
    }),
  }
  await testInfo.attach(SUMMARY_ATTACHMENT, { body: JSON.stringify(summary), contentType: 'application/json' })
}

/** `Storybook          814 of 814 files complete, 0 stale variants  storybook-static  (56.2 s)` */
export function summaryLine(summary: FolderSummary): string {
  const name = summary.name.padEnd(18)
  const took = `(${summary.seconds} s)`
  if (summary.status !== 0) return `${name} build failed (exit ${summary.status})  ${took}`
  if (summary.eligible === undefined) return `${name} no folder at ${summary.out}  ${took}`
  const files = `${summary.complete} of ${summary.eligible} files complete`.padStart(30)
  return `${name} ${files}, ${summary.stale} stale variants  ${summary.out}  ${took}`
}
