#!/usr/bin/env node
// The only place that prints errors and sets the exit code: user mistakes get one clear line
// (exit 1), crashes get a stack (exit 2). citty's runMain is not used: it catches every error
// itself, prints it and exits 1, so crashes and mistakes would look alike.
import { isPreencodeError } from '@preencode/core'
import { run } from './run.js'

process.on('unhandledRejection', (error) => { throw error })
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
