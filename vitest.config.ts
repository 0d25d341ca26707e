import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// One Vitest run over every package's test/ folder and the bench's pure pieces
// (bench/<part>/*.test.ts). Tests run the sources: each package entry point resolves to its
// `src/*.ts` through tsconfig.tests.json's `paths` (the one list, which `pnpm typecheck` checks
// the tests with too), so a test imports its own package's modules by relative path and a sibling
// package by name, and no export exists just for a test. Child processes (the CLI, builds,
// servers), the e2e and the bench run the built dist/: scripts/test.sh builds first.
const root = new URL('./', import.meta.url)
const { compilerOptions } = JSON.parse(readFileSync(new URL('tsconfig.tests.json', root), 'utf8')) as {
  compilerOptions: { paths: Record<string, [string]> }
}
const sourceAliases = Object.entries(compilerOptions.paths).map(([specifier, [source]]) => ({
  find: new RegExp(`^${specifier}$`),
  replacement: fileURLToPath(new URL(source, root)),
}))

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test-utils/test/**/*.test.ts', 'bench/*/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    // Brotli 11 and zstd 19 are CPU-bound and the machine has two cores: don't oversubscribe.
    maxWorkers: 2,
  },
})
