#!/usr/bin/env node
// Runs the linter and the type checks, then every test layer (Vitest, then Playwright), and ends
// with one line `N passed, N failed` totalled over both (a lint or type failure counts as one), so a run that
// executed nothing is visible. Exit code: 0 only if all passed.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, '.test-out')
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const bin = (name) => join(root, 'node_modules', '.bin', name)
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status

// Lint and type checks first: they take seconds, and a finding is reported even when a later
// layer crashes. The packages' sources (tsc -b, as built), then the tests (tsconfig.tests.json).
// Biome, then knip (unused files, exports and dependencies: knip.jsonc); either failing is the lint failure.
const biomeStatus = run(bin('biome'), ['check', '--error-on-warnings'])
const knipStatus = run(bin('knip'), ['--no-progress'])
const lintStatus = biomeStatus || knipStatus
const packageConfigs = readdirSync(join(root, 'packages')).map((name) => join('packages', name, 'tsconfig.json'))
const typeStatus = run(bin('tsc'), ['-b', ...packageConfigs]) || run(bin('tsc'), ['-p', 'tsconfig.tests.json'])

const vitestJson = join(out, 'vitest.json')
const vitestStatus = run(bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
])
const playwrightJson = join(out, 'playwright.json')
const playwrightStatus = run(
  bin('playwright'),
  ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json,./e2e/frameworks/summary-reporter.ts'],
  {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
  },
)

let passed = 0
let failed = 0
let skipped = 0
if (existsSync(vitestJson)) {
  const r = JSON.parse(readFileSync(vitestJson, 'utf8'))
  passed += r.numPassedTests ?? 0
  // A suite that failed to load has no failed test of its own: count it once.
  failed += (r.numFailedTests ?? 0) || (r.numFailedTestSuites ?? 0)
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0)
} else {
  failed += 1
  console.error('[test] Vitest wrote no report')
}
if (existsSync(playwrightJson)) {
  const s = JSON.parse(readFileSync(playwrightJson, 'utf8')).stats ?? {}
  passed += (s.expected ?? 0) + (s.flaky ?? 0)
  failed += s.unexpected ?? 0
  skipped += s.skipped ?? 0
} else {
  failed += 1
  console.error('[test] Playwright wrote no report')
}
if (lintStatus !== 0) {
  failed += 1
  console.error('[test] pnpm lint found problems (listed above)')
}
if (typeStatus !== 0) {
  failed += 1
  console.error('[test] pnpm typecheck found problems (listed above)')
}
if ((vitestStatus !== 0 || playwrightStatus !== 0) && failed === 0) failed = 1
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed === 0 && passed > 0 ? 0 : 1)
