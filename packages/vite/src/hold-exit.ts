/**
 * Qwik City's adapters end the process 5 s after their SSG (`setTimeout(() => process.exit(0),
 * 5000).unref()`, for a build that would otherwise hang on native handles). The pages are
 * compressed after that, in the same `closeBundle` phase: a site that takes longer would be cut
 * short, with exit code 0. The exit is held from the server build's `writeBundle` (before the
 * adapter's `closeBundle` can set its timer) until the pages are compressed, and happens after,
 * as the adapter meant it: only if the process is still running then.
 *
 * Returns the function that lets the exit go again.
 */
export function holdExit(): () => void {
  const exit = process.exit
  let asked: { code: Parameters<typeof process.exit>[0] } | undefined
  process.exit = ((code?: Parameters<typeof process.exit>[0]) => {
    asked = { code }
  }) as typeof process.exit
  return () => {
    process.exit = exit
    if (asked) setTimeout(() => exit(asked?.code), 1000).unref()
  }
}
