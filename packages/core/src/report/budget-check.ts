import type { Manifest, ManifestFile } from '../manifest/manifest.js'
import type { BudgetCheck, BudgetFormat, BudgetResult, ResolvedBudget } from '../options/budgets.js'

/** The bytes a browser gets for `file` in `format`: the variant, or the original when there is none. */
function sizeIn(file: ManifestFile, format: BudgetFormat): number {
  if (format === 'original') return file.size
  return file.variants.find((v) => v.format === format)?.size ?? file.size
}

/** Measures every file of the manifest against every budget. Pure. */
export function checkBudgets(manifest: Manifest, budgets: readonly ResolvedBudget[]): BudgetResult {
  const checks: BudgetCheck[] = []
  const unmatched: BudgetResult['unmatched'] = []
  for (const budget of budgets) {
    const files = manifest.files.filter((file) => budget.matches(file.path))
    if (files.length === 0) unmatched.push({ budget: budget.label, format: budget.format, max: budget.max })
    for (const file of files) {
      const size = sizeIn(file, budget.format)
      checks.push({
        budget: budget.label,
        format: budget.format,
        path: file.path,
        size,
        max: budget.max,
        over: size > budget.max,
      })
    }
  }
  checks.sort((a, b) => b.size / Math.max(1, b.max) - a.size / Math.max(1, a.max) || (a.path < b.path ? -1 : 1))
  const failures = checks.filter((c) => c.over)
  return { checks, failures, unmatched, ok: failures.length === 0 && unmatched.length === 0 }
}
