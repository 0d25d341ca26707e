// Scale part: what a cold compress costs as a site grows, apart from the build part's apps so
// that either runs without the other (`--only build` skips these long runs): throughput on a
// generated 20,000-file site (large-site/), and peak memory of `preencode compress` and of
// compressDirectory in Node on bench/app's plain output once and ten times over (memory/).
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { appEntries, buildAppOrThrow } from '../lib/app-build/index.ts'
import type { BenchContext } from '../lib/context.ts'
import { importBuilt } from '../lib/packages.ts'
import { APP_ROOT } from '../lib/paths.ts'
import { emptyPart, type PartResult } from '../lib/report.ts'
import { firstLine } from '../lib/util.ts'
import { measureLargeSite } from './large-site/index.ts'
import { MEMORY_TARGET, measureMemoryScaling } from './memory/index.ts'

export async function runScale(ctx: BenchContext): Promise<PartResult> {
  const part = emptyPart('scale', 'Build at scale: a 20,000-file site, and peak memory against site size')
  part.description = [
    '`preencode compress` on a generated 20,000-file site, cold then warm, for throughput; then on bench/app’s plain',
    'output once and ten times over (cache off) for peak memory, as the CLI and as compressDirectory in a plain Node process.',
  ].join(' ')
  const core = await importBuilt('@preencode/core', ['compress'])
  if ('why' in core) {
    part.targets.push({ part: 'scale', target: MEMORY_TARGET, why: core.why })
    part.notes.push(`skipped: ${core.why}`)
    return part
  }
  const work = join(ctx.tmp, 'scale')
  await mkdir(work, { recursive: true })
  await measureLargeSite(ctx, part, join(work, 'large'))
  // bench/app's plain output: the build part's when it ran in this run, else built here.
  let site = ctx.shared.benchAppDist
  if (site === undefined) {
    site = join(work, 'app-dist')
    ctx.log('scale: building bench/app plainly…')
    try {
      await buildAppOrThrow({
        tool: 'baseline',
        appRoot: APP_ROOT,
        outDir: site,
        entries: appEntries(ctx, APP_ROOT),
        resultFile: join(work, 'result.json'),
      })
    } catch (error) {
      part.targets.push({ part: 'scale', target: MEMORY_TARGET, why: firstLine(error) })
      return part
    }
  }
  await measureMemoryScaling(ctx, part, site, join(work, 'memory'))
  return part
}
