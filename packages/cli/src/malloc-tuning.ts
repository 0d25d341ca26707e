/**
 * `preencode compress` on Linux starts itself again with glibc's mmap threshold fixed at 1 MiB.
 *
 * Why: glibc raises its mmap threshold each time it frees a mapped block of up to 32 MiB, and the
 * encoders allocate and free such blocks on every large file (brotli's ring buffer, zstd's
 * tables, the file's bytes). From then on blocks that size come from malloc's heaps, where freed
 * space is seldom returned, so peak RSS grew with the length of the run. Measured on the bench
 * app (gzip 9 + brotli 11 + zstd 19, no cache, 2 cores): peak RSS 254–280 MB for the site and
 * 334–370 MB for ten copies of it; with the threshold fixed, 208–223 MB and 246–254 MB, for
 * 1–8% more time (about 5% typical; runs that close are within the machine's noise). glibc reads
 * the setting only when a process starts, hence the second process.
 *
 * Not done when the environment already sets it (or any glibc tunable), with
 * PREENCODE_MALLOC_TUNING=off, on other systems or C libraries, or for other commands (they
 * encode little). This module imports nothing of preencode: bin.ts loads it before the rest.
 */
import { spawn } from 'node:child_process'

export const MALLOC_MMAP_THRESHOLD_ENV = 'MALLOC_MMAP_THRESHOLD_'
export const MALLOC_MMAP_THRESHOLD = String(1024 * 1024)
const PARENT_PID_ENV = 'PREENCODE_PARENT_PID'

/**
 * Whether this run should start itself again with the threshold set. `onGlibc` is asked last,
 * so other commands never pay for the check (`process.report`, ~2 ms).
 */
export function wantsMallocTuning(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  onGlibc: () => boolean,
): boolean {
  if (args.find((arg) => !arg.startsWith('-')) !== 'compress') return false
  if (env.PREENCODE_MALLOC_TUNING === 'off') return false
  if (env[MALLOC_MMAP_THRESHOLD_ENV] !== undefined || env.GLIBC_TUNABLES !== undefined) return false
  return onGlibc()
}

/** True on Linux with glibc (`process.report` names its version; musl has none). */
export function runsOnGlibc(): boolean {
  if (process.platform !== 'linux') return false
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined
  return typeof report?.header?.glibcVersionRuntime === 'string'
}

/**
 * Runs this command again in a child with the threshold set and ends with the child's status.
 * The child gets its own process group, so a terminal's Ctrl-C reaches it once (forwarded
 * from here), as its interrupt handling expects: a second SIGINT ends it at once.
 */
export function rerunWithMallocTuning(): void {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    detached: true,
    env: { ...process.env, [MALLOC_MMAP_THRESHOLD_ENV]: MALLOC_MMAP_THRESHOLD, [PARENT_PID_ENV]: String(process.pid) },
  })
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal)
  }
  for (const signal of signals) process.on(signal, forward)
  // If this process ends first (an uncaught error), the child must not run on alone.
  const stopChild = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
  }
  process.on('exit', stopChild)
  child.on('error', (error) => {
    process.stderr.write(`[preencode] [cli] could not start ${process.execPath}: ${error.message}\n`)
    process.exitCode = 1
  })
  child.on('exit', (code, signal) => {
    process.off('exit', stopChild)
    for (const name of signals) process.off(name, forward)
    // Ended by a signal it did not handle: end the same way, so callers see the same status.
    if (signal) process.kill(process.pid, signal)
    else process.exitCode = code ?? 1
  })
}

/**
 * In the child: ends it (as SIGTERM would) once the process that started it is gone, e.g. killed
 * with SIGKILL by a CI timeout, which no handler there can see. Its own process group would
 * otherwise keep it running alone. Writes are atomic, so what it leaves is temp files, which the
 * next run removes.
 */
export function followParent(env: Readonly<Record<string, string | undefined>>): void {
  const parent = Number(env[PARENT_PID_ENV])
  if (!Number.isInteger(parent) || parent <= 0) return
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM')
  }, 500).unref()
}
