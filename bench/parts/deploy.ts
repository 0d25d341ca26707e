import { emptyPart, type PartResult } from '../lib/report.ts'
import type { BenchContext } from '../lib/context.ts'
export async function runDeploy(_ctx: BenchContext): Promise<PartResult> {
  return { ...emptyPart('deploy', 'Deploy'), skipped: 'not written yet' }
}
