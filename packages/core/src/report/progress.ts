import { styleText } from 'node:util'
import { formatBytes } from './units.js'

/** What `createProgress` needs of a stream: `process.stderr` fits. */
export interface ProgressStream {
  write(chunk: string): unknown
  isTTY?: boolean
  columns?: number
}

/** Bytes of originals finished so far and in all: what the percentage, rate and time left use. */
export interface ProgressBytes {
  done: number
  total: number
}

export interface Progress {
  /** Shape of `compressDirectory`'s `onProgress`, so it can be passed straight through. */
  update(done: number, total: number, path: string, bytes?: ProgressBytes): void
  /** Clears the line; call before printing the report. */
  done(): void
  /** False when this progress prints nothing (not a TTY, CI, NO_COLOR, TERM=dumb). */
  readonly active: boolean
}

export interface ProgressOptions {
  /**
   * Environment to read CI / NO_COLOR / TERM from.
   * @default process.env
   */
  env?: Record<string, string | undefined>
  /**
   * Least time between two redraws, so a run of 10,000 small files does not spend its time
   * repainting.
   * @default 100
   */
  intervalMs?: number
  /**
   * The clock, in milliseconds (tests pass a fake one).
   * @default Date.now
   */
  now?: () => number
}

/** A rate and a time left computed from less than this is noise: they are shown after it. */
const SETTLE_MS = 1000

/**
 * A one-line `[ 42%] 80/659 · 1.20 MB/s · 1m 12s left  path` display for long runs on an
 * interactive terminal. The percentage, the rate and the time left are by bytes of originals,
 * since an encode's cost follows its size, not the number of files. Redrawing a line only
 * makes sense on a TTY a person watches: in CI logs, pipes, with NO_COLOR or a dumb terminal it
 * would leave `\r` garbage, so there it prints nothing at all.
 */
export function createProgress(stream: ProgressStream, options: ProgressOptions = {}): Progress {
  const env = options.env ?? process.env
  const active = stream.isTTY === true && !env.CI && !env.NO_COLOR && env.TERM !== 'dumb'
  if (!active) return { update() {}, done() {}, active }
  const intervalMs = options.intervalMs ?? 100
  const clock = options.now ?? Date.now
  const started = clock()
  let last = Number.NEGATIVE_INFINITY
  let shown = false
  return {
    active,
    update(done, total, path, bytes) {
      const now = clock()
      if (done < total && now - last < intervalMs) return
      last = now
      const width = Math.max(20, (stream.columns ?? 80) - 1)
      const status = progressStatus(done, total, bytes, now - started)
      const room = width - status.length - 1
      const name = room <= 1 ? '' : path.length > room ? `…${path.slice(path.length - room + 1)}` : path
      // \r + erase-line (CSI 2K) redraws in place without scrolling.
      stream.write(`\r\x1b[2K${styleText('dim', status, { validateStream: false })} ${name}`)
      shown = true
    },
    done() {
      if (shown) stream.write('\r\x1b[2K')
      shown = false
    },
  }
}

/** `[ 42%] 80/659 · 1.20 MB/s · 1m 12s left`; without bytes, `[80/659]`. */
export function progressStatus(
  done: number,
  total: number,
  bytes: ProgressBytes | undefined,
  elapsedMs: number,
): string {
  if (bytes === undefined || bytes.total <= 0) return `[${done}/${total}]`
  const percent = Math.min(100, Math.floor((bytes.done / bytes.total) * 100))
  const parts = [`[${String(percent).padStart(3)}%] ${done}/${total}`]
  if (elapsedMs >= SETTLE_MS && bytes.done > 0) {
    const perMs = bytes.done / elapsedMs
    parts.push(`${formatBytes(Math.round(perMs * 1000))}/s`)
    if (done < total) parts.push(`${formatTimeLeft((bytes.total - bytes.done) / perMs)} left`)
  }
  return parts.join(' · ')
}

/** `45s`, `3m 05s`, `1h 02m`. */
export function formatTimeLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000))
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`
}
