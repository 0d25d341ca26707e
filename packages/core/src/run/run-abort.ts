// One abort for a compress run: the caller's signal or the first failed file stops the queued
// work instead of letting it run on.

/** The run's abort: `signal` goes to the pool and the file jobs. */
export interface RunAbort {
  readonly signal: AbortSignal
  /** Stops the run with `error` (the first failure). */
  fail(error: unknown): void
  /** Stops listening to the caller's signal: the encodes have settled. */
  detach(): void
}

/** Follows `outer` (the caller's signal, if any): aborted already, or later. */
export function runAbort(outer: AbortSignal | undefined): RunAbort {
  const controller = new AbortController()
  const onAbort = (): void => controller.abort(outer?.reason)
  outer?.addEventListener('abort', onAbort, { once: true })
  if (outer?.aborted) onAbort()
  return {
    signal: controller.signal,
    fail: (error) => controller.abort(error),
    detach: () => outer?.removeEventListener('abort', onAbort),
  }
}
