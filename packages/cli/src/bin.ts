#!/usr/bin/env node
// The only place that prints errors and sets the exit code: user mistakes get one clear line
// (exit 1), crashes get a stack (exit 2).
import { runMain } from 'citty'
import { isPreencodeError } from '@preencode/core'
import { main } from './main.js'

process.on('unhandledRejection', (error) => { throw error })
try {
  await runMain(main, { rawArgs: process.argv.slice(2) })
} catch (error) {
  if (isPreencodeError(error) && error.isUserError) {
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  }
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(2)
}
