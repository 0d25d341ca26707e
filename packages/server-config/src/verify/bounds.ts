// How long `verifySite` may run (issue 29): a per-request timeout and a total deadline. In CI a
// hung origin, a broken proxy or a stalled CDN must fail the job with one line naming the URL,
// not hang it: the first request without a complete answer in time stops the whole run (the
// next ones would only wait as long), and so does the deadline.
import { type OptionLabel, userError } from '@preencode/core'
import { StalledAnswer } from './http.js'

/** The run's stop switch: `signal` aborts every request; `check` turns a request's failure into the run's. */
export interface RunBounds {
  signal: AbortSignal
  timeoutMs: number
  /** Rethrows (as the run's one-line error) a failure that must end the run; returns otherwise. */
  check(error: unknown, url: string, acceptEncoding: string | undefined): void
  /** Clears the deadline timer. */
  close(): void
}

/** The bounds of one run; `label` names the `timeout` and `deadline` settings as the user set them. */
export function runBounds(site: string, timeoutMs: number, deadlineMs: number, label: OptionLabel): RunBounds {
  const stop = new AbortController()
  const timer = setTimeout(
    () =>
      stop.abort(
        userError(
          'verify',
          `${site}: not finished within the deadline of ${deadlineMs / 1000} s (${label('deadline')}); stopped. Raise it, or check fewer files with ${label('limit')}.`,
          { code: 'VERIFY_FAILED' },
        ),
      ),
    deadlineMs,
  )
  return {
    signal: stop.signal,
    timeoutMs,
    check(error, url, acceptEncoding) {
      if (stop.signal.aborted) throw stop.signal.reason
      if (!(error instanceof StalledAnswer)) return
      const asked = acceptEncoding === undefined ? 'no Accept-Encoding' : `Accept-Encoding "${acceptEncoding}"`
      stop.abort(
        userError(
          'verify',
          `${url} (${asked}): no complete answer within ${timeoutMs / 1000} s (${label('timeout')}); stopped.`,
          { code: 'VERIFY_FAILED' },
        ),
      )
      throw stop.signal.reason
    },
    close: () => clearTimeout(timer),
  }
}
