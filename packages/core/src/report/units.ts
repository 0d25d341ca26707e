/** Byte counts and durations as the reports print them (`12.3 kB`, `850 ms`, `1.2 s`). */
/**
 * `1.2 MB`, `340 kB`, `512 B`: decimal units, as browsers' devtools show transfer sizes and as
 * size budgets read `'150 kB'`. Every size preencode prints goes through here: the text and
 * HTML reports (whose page inlines this function's source, so it stays plain ES2020), progress,
 * deploy's plan and summary.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  if (bytes < 1e6) return `${(bytes / 1000).toFixed(1)} kB`
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(2)} MB`
  return `${(bytes / 1e9).toFixed(2)} GB`
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}
