import { setTimeout as sleep } from 'node:timers/promises'

/** How a failed S3 request is retried: how many times and with which back-off. */
export interface RetryOptions {
  /**
   * Retries after the first attempt.
   * @default 4
   */
  retries?: number
  /**
   * First back-off delay; each retry doubles it, with full jitter.
   * @default 200
   */
  baseDelayMs?: number
  /** @default 5000 */
  maxDelayMs?: number
}

const DEFAULT_RETRY = Object.freeze({
  retries: 4,
  baseDelayMs: 200,
  maxDelayMs: 5000,
} satisfies Required<RetryOptions>)

/**
 * Calls `attempt` until it succeeds, a non-retryable error occurs, or retries run out.
 * Exponential back-off with full jitter (AWS architecture blog, "Exponential Backoff And
 * Jitter"): the delay is uniform in [0, min(max, base * 2^n)].
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  isRetryable: (error: unknown) => boolean,
  options: RetryOptions = {},
  onRetry?: (attempt: number, delayMs: number, error: unknown) => void,
): Promise<T> {
  const { retries, baseDelayMs, maxDelayMs } = { ...DEFAULT_RETRY, ...options }
  for (let n = 0; ; n++) {
    try {
      return await attempt(n)
    } catch (error) {
      if (n >= retries || !isRetryable(error)) throw error
      const delayMs = Math.round(Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** n))
      onRetry?.(n + 1, delayMs, error)
      await sleep(delayMs)
    }
  }
}
