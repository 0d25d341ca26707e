import { defineConfig } from 'vitest/config'

// One Vitest run over every package's test/ folder and the bench's pure pieces
// (bench/<part>/*.test.ts). Packages are imported by name, i.e. from their built dist/, exactly
// as users get them: scripts/test.sh builds first.
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test-utils/test/**/*.test.ts', 'bench/*/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    // Brotli 11 and zstd 19 are CPU-bound and the machine has two cores: don't oversubscribe.
    maxWorkers: 2,
  },
})
