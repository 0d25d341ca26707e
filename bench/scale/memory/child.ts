// One `compressDirectory` run of @preencode/core in its own process, so that `maxRSS` is the
// peak of this run alone. Spawned by index.ts (this folder) with a JSON spec as argv[2].
import { writeFile } from 'node:fs/promises'
import type { CompressOutcome, CompressSpec } from './spec.ts'

const spec = JSON.parse(process.argv[2]!) as CompressSpec
let outcome: CompressOutcome
const started = performance.now()
try {
  const { compress: compressDirectory } = await import('@preencode/core')
  // No cache: the copies of a duplicated site are byte-identical and would all be cache hits.
  if (spec.dir !== null) await compressDirectory(spec.dir, { formats: ['gzip', 'brotli', 'zstd'], cache: false })
  outcome = { ms: performance.now() - started, maxRssBytes: process.resourceUsage().maxRSS * 1024 }
} catch (error) {
  outcome = {
    ms: Number.NaN,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    error: String((error as Error).stack ?? error),
  }
}
await writeFile(spec.resultFile, JSON.stringify(outcome))
