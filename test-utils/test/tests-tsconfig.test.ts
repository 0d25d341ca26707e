// tsconfig.tests.json's `paths` send each package entry point to its source, for `pnpm typecheck`
// of the tests and for Vitest (vitest.config.ts aliases from them): they must name every entry of
// the packages' `exports`, or a test would run (or be checked against) the built dist/.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

/** Each package entry point (its `exports` entry) -> its source, relative to the root. */
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

it("tsconfig.tests.json's paths name every package entry point's source", () => {
  const config = JSON.parse(readFileSync(join(ROOT, 'tsconfig.tests.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> }
  }
  expect(config.compilerOptions.paths).toEqual(sourceEntries())
})
