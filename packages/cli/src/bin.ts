#!/usr/bin/env node
// Checked before anything else is imported: preencode's modules import zstd from node:zlib,
// which Node before 22.15 lacks, and the import alone would fail with a raw SyntaxError. This
// file must stay free of static imports and of syntax an old Node cannot parse (so its one
// message types core's `[preencode] [cli]` prefix by hand).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 15)) {
  process.stderr.write(
    `[preencode] [cli] preencode needs Node >= 22.15 (for zstd in node:zlib); this is Node ${process.versions.node}. Install a current Node from https://nodejs.org (or with your version manager) and run it again.\n`,
  )
  process.exit(1)
}
// glibc's malloc settings are read at process start only: see malloc-tuning.ts.
const tuning = await import('./malloc-tuning.js')
if (tuning.wantsMallocTuning(process.argv.slice(2), process.env, tuning.runsOnGlibc, process.execArgv)) {
  tuning.execWithMallocTuning()
}
await import('./start.js')

// A module (for top-level await), with nothing to export.
export {}
