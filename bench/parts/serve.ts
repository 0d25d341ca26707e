import { emptyPart, type PartResult } from '../lib/report.ts'
import type { BenchContext } from '../lib/context.ts'
export async function runServe(_ctx: BenchContext): Promise<PartResult> {
  return { ...emptyPart('serve', 'Serving'), skipped: 'not written yet' }
}
