// The only place that prints errors and sets the exit code: user mistakes get one clear line
// (exit 1), crashes get a stack (exit 2). citty's runMain is not used: it catches every error
// itself, prints it and exits 1, so crashes and mistakes would look alike. bin.ts checks the
// Node version and then imports this file.
import { isPreencodeError } from '@preencode/core'
import { preencodeMessage } from '@preencode/core/internal'
import { run } from './run.js'

process.on('unhandledRejection', (error) => {
  throw error
})
// Output piped to a reader that stops early (`preencode config nginx dist | head`): stdout
// emits EPIPE, which unhandled would crash with a stack. Say it in one line and stop.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
  process.stderr.write(
    `${preencodeMessage('the output was closed before preencode finished writing it (EPIPE); stopped. Write to a file (--out, or > file) to keep all of it.', 'cli')}\n`,
  )
  process.exit(1)
})
try {
  process.exitCode = await run(process.argv.slice(2))
} catch (error) {
  if (isPreencodeError(error) && error.isUserError) {
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  }
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(2)
}
