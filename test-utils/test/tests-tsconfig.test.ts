// `pnpm typecheck` checks the tests with tsconfig.tests.json, whose `paths` send each package
// name to its source as vitest.config.ts does from the packages' `exports`: the two must agree,
// or a test is type-checked against another module than the one it runs.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

/** Each package entry point (as vitest.config.ts aliases it) -> its source, relative to the root. */
function sourceEntries(): Record<string, string[]> {
  const entries: Record<string, string[]> = {}
  for (const dir of readdirSync(join(ROOT, 'packages'))) {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as {
      name: string
      exports: Record<string, string | { default: string }>
    }
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue
      const source = target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')
      entries[manifest.name + subpath.slice(1)] = [`./packages/${dir}/${source}`]
    }
  }
  return entries
}

it("tsconfig.tests.json's paths name every package entry point's source, as Vitest resolves it", () => {
  const config = JSON.parse(readFileSync(join(ROOT, 'tsconfig.tests.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> }
  }
  expect(config.compilerOptions.paths).toEqual(sourceEntries())
})
