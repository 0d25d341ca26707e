// Text renderers for the deploy and verify commands: they return strings, the command prints them.
import { formatBytes } from '@preencode/core'
import type { DeployPlan, DeploySummary } from '@preencode/deploy'
import type { VerifyResult } from '@preencode/server-config'

/** The dry-run plan: every upload by phase with its reason, then deletions and kept objects. */
export function formatPlan(plan: DeployPlan, target: string): string {
  const lines = [`Plan for ${target}:`]
  for (const phase of plan.phases) {
    lines.push(`  ${phase.phase}: ${phase.uploads.length} to upload, ${phase.unchanged.length} unchanged`)
    for (const upload of phase.uploads)
      lines.push(`    upload ${upload.key} (${upload.reason}, ${formatBytes(upload.size)})`)
  }
  for (const key of plan.deletions) lines.push(`  delete ${key}`)
  for (const key of plan.kept) lines.push(`  keep   ${key}`)
  if (plan.leftOut.length > 0) lines.push(`  ${leftOutLine(plan.leftOut)}`)
  return lines.join('\n')
}

/** One line: how many dotfiles stay on this machine, the first few named (names, never contents). */
function leftOutLine(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ')
  const more = paths.length > 3 ? ` and ${paths.length - 3} more` : ''
  return `left out ${paths.length} dotfile${paths.length === 1 ? '' : 's'} (${shown}${more}); --include-dotfiles uploads them`
}

export function formatSummary(summary: DeploySummary): string {
  const verb = summary.dryRun ? 'would upload' : 'uploaded'
  return (
    `${summary.dryRun ? 'Dry run: ' : ''}${summary.target}: ${verb} ${summary.uploaded} objects (${formatBytes(summary.uploadedBytes)}), ` +
    `skipped ${summary.skipped} unchanged, ${summary.dryRun ? 'would delete' : 'deleted'} ${summary.deleted}` +
    `${summary.kept ? `, kept ${summary.kept} stale` : ''}${summary.leftOut ? `, left out ${summary.leftOut} dotfile${summary.leftOut === 1 ? '' : 's'}` : ''}; ${summary.requests} requests in ${(summary.durationMs / 1000).toFixed(2)} s`
  )
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length)
}

/** A plain-text table of the failed checks (none: a one-line success). */
export function formatVerifyReport(result: VerifyResult): string {
  if (result.failures.length === 0) {
    return `verify ${result.url}: ${result.checks.length} checks on ${result.files} files passed in ${(result.durationMs / 1000).toFixed(2)} s`
  }
  const rows = result.failures.map((c) => [
    new URL(c.url).pathname,
    c.acceptEncoding ?? '(none)',
    String(c.status),
    c.contentEncoding ?? '-',
    c.problems.join('; '),
  ])
  const header = ['URL', 'Accept-Encoding', 'Status', 'Content-Encoding', 'Problem']
  const widths = header.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => r[i]!.length))))
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i]!))).join('  ')
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `verify ${result.url}: ${result.failures.length} of ${result.checks.length} checks failed on ${result.files} files`,
  ].join('\n')
}
