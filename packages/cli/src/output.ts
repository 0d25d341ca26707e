/**
 * How every `preencode` subcommand prints: JSON on stdout, a logger on stderr honouring
 * `--quiet`, colour only for a person at a terminal. Only commands (and bin.ts) print; nothing
 * here calls `process.exit`.
 */
import type { CompressLogger } from '@preencode/core'

/** What the logger and the printers need of a stream: `process.stdout`/`process.stderr` fit. */
export interface OutputStream {
  write(chunk: string): unknown
  isTTY?: boolean
}

/** Pretty JSON plus a newline: the only thing a command prints to stdout in `--json` mode. */
export function printJson(value: unknown, stream: OutputStream = process.stdout): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`)
}

/** A `CompressLogger` writing to stderr (stdout stays for the result); silent with `quiet`. */
export function createLogger(options: { quiet?: boolean; stream?: OutputStream } = {}): CompressLogger {
  const stream = options.stream ?? process.stderr
  if (options.quiet) return { info() {}, warn() {} }
  return {
    info: (message) => {
      stream.write(`${message}\n`)
    },
    warn: (message) => {
      stream.write(`warning: ${message}\n`)
    },
  }
}

/** Colour only for a person at a terminal: the same rule as the plugins (core's build runner). */
export { wantsColor } from '@preencode/core'
