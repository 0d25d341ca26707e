// Builds bench/app (or a copy of it) with Vite in a child process, so that `maxRSS` is that
// build's peak and nothing else's. Used by the build, deploy, dictionary and versions parts.
import { cp, readFile, rm, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { BenchContext } from '../context.ts'
import { APP_ROOT } from '../paths.ts'
import { runChild } from '../util.ts'
import type { BuildOutcome, BuildSpec } from './spec.ts'

export { type BuildOutcome, type BuildSpec, type BuildTool, PEER_LEVELS } from './spec.ts'

const FULL_ENTRIES = { index: 'index.html', charts: 'charts.html', scene: 'scene.html' }
const QUICK_ENTRIES = { scene: 'scene.html' }
const CHILD = join(import.meta.dirname, 'child.ts')

/** The HTML entries of the app in `app`: all three, or the three.js one alone with --quick. */
export function appEntries(ctx: BenchContext, app: string): Record<string, string> {
  return Object.fromEntries(Object.entries(ctx.quick ? QUICK_ENTRIES : FULL_ENTRIES).map(([k, v]) => [k, join(app, v)]))
}

/** A copy of bench/app in `app` whose dependencies resolve as from bench/app itself. */
export async function copyApp(app: string): Promise<void> {
  await cp(APP_ROOT, app, { recursive: true })
  await symlink(join(APP_ROOT, '..', 'node_modules'), join(app, 'node_modules'), 'dir')
}

/** Runs one build; a failed build or child comes back as `outcome.error`, never as a throw. */
export async function runAppBuild(spec: BuildSpec): Promise<BuildOutcome> {
  await rm(spec.resultFile, { force: true })
  const child = await runChild(process.execPath, [CHILD, JSON.stringify(spec)], { timeoutMs: 15 * 60_000 })
  try {
    return JSON.parse(await readFile(spec.resultFile, 'utf8')) as BuildOutcome
  } catch {
    return {
      buildMs: Number.NaN,
      maxRssBytes: Number.NaN,
      error: `child exited ${child.code ?? child.signal}: ${child.stderr.slice(-2000)}`,
    }
  }
}

/** Builds the app in `app` into `outDir` and throws if the build failed. */
export async function buildAppOrThrow(spec: BuildSpec): Promise<void> {
  const outcome = await runAppBuild(spec)
  if (outcome.error) throw new Error(`bench/app build failed: ${outcome.error}`)
}

/** Builds a copy of bench/app plainly (no compression plugin). */
export async function buildApp(ctx: BenchContext, app: string, outDir: string, resultFile: string): Promise<void> {
  await buildAppOrThrow({ tool: 'baseline', appRoot: app, outDir, entries: appEntries(ctx, app), resultFile })
}
