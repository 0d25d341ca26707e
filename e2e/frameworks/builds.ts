// Each fixture is built once per run by the `frameworks-build` project (build.setup.ts), two at
// a time (CI has 2 cores); the `frameworks` project reads what each build printed from here.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { FIXTURES_DIR, run } from './build.ts'
import type { Framework } from './list.ts'

/** Git-ignored; one JSON file per fixture, written by the last `frameworks-build` run. */
const BUILDS_DIR = join(FIXTURES_DIR, '.e2e-builds')
/** Builds running at once: each framework build keeps about one core busy. */
const PARALLEL_BUILDS = 2

export interface BuildResult {
  status: number | null
  output: string
  seconds: number
}

const resultPath = (framework: Framework): string => join(BUILDS_DIR, `${framework.dir}.json`)

/** `pnpm run build` in every fixture, PARALLEL_BUILDS at a time; each result is stored as it ends. */
export async function buildAll(frameworks: readonly Framework[]): Promise<Map<string, BuildResult>> {
  await rm(BUILDS_DIR, { recursive: true, force: true })
  await mkdir(BUILDS_DIR, { recursive: true })
  const results = new Map<string, BuildResult>()
  const queue = [...frameworks]
  const worker = async (): Promise<void> => {
    for (let framework = queue.shift(); framework; framework = queue.shift()) {
      const started = performance.now()
      const { status, output } = await run(join(FIXTURES_DIR, framework.dir), 'pnpm', ['run', 'build'])
      const result = { status, output, seconds: Math.round((performance.now() - started) / 100) / 10 }
      results.set(framework.name, result)
      await writeFile(resultPath(framework), JSON.stringify(result))
    }
  }
  await Promise.all(Array.from({ length: PARALLEL_BUILDS }, worker))
  return results
}

/** The stored result of this run's build of `framework` (the `frameworks-build` project wrote it). */
export async function buildResult(framework: Framework): Promise<BuildResult> {
  const text = await readFile(resultPath(framework), 'utf8').catch(() => undefined)
  if (text === undefined) throw new Error(`${framework.name} was not built: run the frameworks-build project first`)
  return JSON.parse(text) as BuildResult
}
