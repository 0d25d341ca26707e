import { styleText } from 'node:util'

/** What `createProgress` needs of a stream: `process.stderr` fits. */
export interface ProgressStream {
  write(chunk: string): unknown
  isTTY?: boolean
  columns?: number
}

export interface Progress {
  /** Shape of `compressDirectory`'s `onProgress`, so it can be passed straight through. */
  update(done: number, total: number, path: string): void
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
}

/**
 * A one-line `[done/total] path` display for long runs on an interactive terminal. Redrawing a
 * line only makes sense on a TTY a person watches: in CI logs, pipes, with NO_COLOR or a dumb
 * terminal it would leave `\r` garbage, so there it prints nothing at all.
 */
export function createProgress(stream: ProgressStream, options: ProgressOptions = {}): Progress {
  const env = options.env ?? process.env
  const active = stream.isTTY === true && !env.CI && !env.NO_COLOR && env.TERM !== 'dumb'
  if (!active) return { update() {}, done() {}, active }
  const intervalMs = options.intervalMs ?? 100
  let last = 0
  let shown = false
  return {
    active,
    update(done, total, path) {
      const now = Date.now()
      if (done < total && now - last < intervalMs) return
      last = now
      const width = Math.max(20, (stream.columns ?? 80) - 1)
      const counter = `[${done}/${total}]`
      const room = width - counter.length - 1
      const name = path.length > room ? `…${path.slice(path.length - room + 1)}` : path
      // \r + erase-line (CSI 2K) redraws in place without scrolling.
      stream.write(`\r\x1b[2K${styleText('dim', counter, { validateStream: false })} ${name}`)
      shown = true
    },
    done() {
      if (shown) stream.write('\r\x1b[2K')
      shown = false
    },
  }
}
