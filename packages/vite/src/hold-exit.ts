/**
 * Holds `process.exit()` until the returned function is called; an exit asked for meanwhile
 * happens then, a second later, and only if the process is still running. Only Qwik City's entry
 * of the framework table asks for it (`frameworks.ts` says why: its adapters end the process
 * while its pages may still be being compressed).
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
