import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// One Vitest run over every package's test/ folder and the bench's pure pieces
// (bench/<part>/*.test.ts). Tests run the sources: each package's entry points (its package.json
// `exports`) are aliased to the matching `src/*.ts`, so a test imports its own package's modules
// by relative path and a sibling package by name, and no export exists just for a test. Child
// processes (the CLI, builds, servers), the e2e and the bench run the built dist/:
// scripts/test.sh builds first.
const packages = fileURLToPath(new URL('./packages/', import.meta.url))

function sourceAliases(): { find: RegExp; replacement: string }[] {
  return readdirSync(packages).flatMap((dir) => {
    const manifest = JSON.parse(readFileSync(`${packages}${dir}/package.json`, 'utf8')) as {
      name: string
      exports: Record<string, string | { default: string }>
    }
    return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
      if (typeof target === 'string') return []
      const specifier = manifest.name + subpath.slice(1)
      const source = target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')
      return [{ find: new RegExp(`^${specifier}$`), replacement: `${packages}${dir}/${source}` }]
    })
  })
}

export default defineConfig({
  resolve: { alias: sourceAliases() },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test-utils/test/**/*.test.ts', 'bench/*/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    // Brotli 11 and zstd 19 are CPU-bound and the machine has two cores: don't oversubscribe.
    maxWorkers: 2,
  },
})
