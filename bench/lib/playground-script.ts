// The script the serving parts measure: the playground's largest, from playground/dist, else a
// fresh build of the playground, else bench/app's.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { BenchContext } from './context.ts'
import { PLAYGROUND, REPO_ROOT } from './paths.ts'
import { firstLine, runChild } from './util.ts'

/** The playground's largest script: from playground/dist, else a fresh build of it, else bench/app's. */
export async function largestPlaygroundScript(
  ctx: BenchContext,
  dir: string,
): Promise<{ path: string; name: string; source: string } | { why: string }> {
  const largest = async (dist: string) => {
    let best: { path: string; name: string; size: number } | undefined
    try {
      for (const entry of await readdir(dist, { withFileTypes: true, recursive: true })) {
        if (!entry.isFile() || !/\.m?js$/.test(entry.name)) continue
        const path = join(entry.parentPath, entry.name)
        const size = (await stat(path)).size
        if (!best || size > best.size) best = { path, name: entry.name, size }
      }
    } catch {
      /* no such directory */
    }
    return best
  }
  const existing = await largest(join(PLAYGROUND, 'dist'))
  if (existing) return { ...existing, source: 'playground/dist' }
  ctx.log('playground/dist is missing; building the playground…')
  const out = join(dir, 'playground-dist')
  const run = await runChild(
    process.execPath,
    [join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', out, '--emptyOutDir'],
    { cwd: PLAYGROUND, timeoutMs: 10 * 60_000 },
  )
  const built = run.code === 0 ? await largest(out) : undefined
  if (built) return { ...built, source: 'playground, built by the bench' }
  const app = ctx.shared.benchAppDist ? await largest(ctx.shared.benchAppDist) : undefined
  if (app)
    return { ...app, source: `bench/app, because the playground did not build: ${firstLine(run.stderr || run.stdout)}` }
  return {
    why: `no playground script: playground/dist is missing and \`vite build\` in playground/ failed (${firstLine(run.stderr || run.stdout)})`,
  }
}
