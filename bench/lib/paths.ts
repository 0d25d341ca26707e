// Where the bench finds the repository's pieces: the benchmark app, the playground, the built CLI.
import { join, resolve } from 'node:path'

export const BENCH_ROOT = resolve(import.meta.dirname, '..')
export const REPO_ROOT = resolve(BENCH_ROOT, '..')
/** The benchmark app (three, echarts, monaco-editor). */
export const APP_ROOT = join(BENCH_ROOT, 'app')
export const PLAYGROUND = join(REPO_ROOT, 'playground')
/** The built CLI, run as `node <CLI_BIN>` (never the `preencode` shim). */
export const CLI_BIN = join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js')
