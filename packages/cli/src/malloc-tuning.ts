/**
 * `preencode compress` and `deploy` on Linux with glibc replace their own process image, once and
 * before any work, with one whose glibc mmap threshold is fixed at 8 MiB.
 *
 * Why: glibc raises its mmap threshold each time it frees a mapped block of up to 32 MiB, and the
 * encoders allocate and free such blocks on every large file (brotli's ring buffer, zstd's
 * tables, the file's bytes). From then on blocks that size come from malloc's heaps, where freed
 * space is seldom returned, so peak RSS grew with the length of the run. Measured on the bench
 * app (gzip 9 + brotli 11 + zstd 19, no cache, 2 cores): peak RSS 254–280 MB for the site and
 * 334–370 MB for ten copies of it; with the threshold fixed, 208–223 MB and 246–254 MB, for
 * 1–8% more time. glibc reads the setting only when a process image starts, hence `execve`
 * (Node >= 22.15): the same process (pid, parent, process group, terminal, signals, exit status)
 * runs again with the variable set. No supervisor, no second process.
 *
 * Not done when the environment already sets it (or any glibc tunable), with
 * PREENCODE_MALLOC_TUNING=off, under an inspector (`--inspect*`: the debugger would be dropped by
 * the exec), on other systems or C libraries, or for other commands (they encode little). This
 * module imports nothing of preencode: bin.ts loads it before the rest.
 */

const MALLOC_MMAP_THRESHOLD_ENV = 'MALLOC_MMAP_THRESHOLD_'
/**
 * 8 MiB, not 1: at 1 MiB every brotli 11 encode of a multi-megabyte file mapped and faulted in
 * its mid-size work arrays afresh (169k minor faults against 51k for one 5.8 MB encode), and with
 * two encoders at once that cost the big-chunk app's cold compress ~10% of its critical path
 * (brotli 11.4 s against 10.1 s, side by side); at 8 MiB the speed of the default and the peak
 * of a fixed threshold (docs/performance.md#peak-memory).
 */
export const MALLOC_MMAP_THRESHOLD = String(8 * 1024 * 1024)

/** The commands that encode enough for the threshold to matter (deploy re-compresses edits). */
const TUNED_COMMANDS: ReadonlySet<string> = new Set(['compress', 'deploy'])
const INSPECT_FLAG = /(?:^|\s)--inspect(?:-brk|-wait)?(?:[=\s]|$)/

/**
 * Whether this run should replace itself with the threshold set. `onGlibc` is asked last, so
 * other commands never pay for the check (`process.report`, ~2 ms).
 */
export function wantsMallocTuning(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  onGlibc: () => boolean,
  execArgv: readonly string[] = [],
): boolean {
  const command = args.find((arg) => !arg.startsWith('-'))
  if (command === undefined || !TUNED_COMMANDS.has(command)) return false
  if (env.PREENCODE_MALLOC_TUNING === 'off') return false
  if (env[MALLOC_MMAP_THRESHOLD_ENV] !== undefined || env.GLIBC_TUNABLES !== undefined) return false
  if (execArgv.some((arg) => INSPECT_FLAG.test(arg)) || INSPECT_FLAG.test(env.NODE_OPTIONS ?? '')) return false
  return onGlibc()
}

/** True on Linux with glibc (`process.report` names its version; musl has none). */
export function runsOnGlibc(): boolean {
  if (process.platform !== 'linux') return false
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined
  return typeof report?.header?.glibcVersionRuntime === 'string'
}

/**
 * Replaces this process image with the same command and the threshold set; returns only if the
 * exec failed (then this image goes on untuned: the threshold is a saving, not a requirement).
 */
export function execWithMallocTuning(): void {
  // Typed optional: absent on Windows and in Node < 22.15 (which bin.ts has already refused).
  if (typeof process.execve !== 'function') return
  try {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      ...process.env,
      [MALLOC_MMAP_THRESHOLD_ENV]: MALLOC_MMAP_THRESHOLD,
    })
  } catch {
    // e.g. a sandbox that forbids execve: run as we are.
  }
}
