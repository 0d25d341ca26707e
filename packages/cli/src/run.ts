import { stripVTControlCharacters } from 'node:util'
import { userError } from '@preencode/core'
import { type CommandDef, renderUsage, runCommand } from 'citty'
import { main } from './main.js'
import { type OutputStream, wantsColor } from './output.js'
import { tidyUsage } from './usage.js'

/**
 * Runs `preencode` with `rawArgs` and resolves to the exit code; throws what the command threw
 * (bin.ts decides how to show it). Handles `--help`/`-h` at any depth and `--version`, and turns
 * citty's own argument errors (unknown command, missing argument) into user errors.
 */
export async function run(rawArgs: string[]): Promise<number> {
  const helpAt = rawArgs.findIndex((arg) => arg === '--help' || arg === '-h')
  const beforeHelp = helpAt === -1 ? rawArgs : rawArgs.slice(0, helpAt)
  if (helpAt !== -1) {
    const [command, parent] = await resolveCommand(main, beforeHelp)
    process.stdout.write(`${usageFor(process.stdout, await renderUsage(command, parent))}\n`)
    return 0
  }
  if (rawArgs.length === 1 && (rawArgs[0] === '--version' || rawArgs[0] === '-v')) {
    const meta = await resolve(main.meta)
    process.stdout.write(`${meta?.version ?? 'unknown'}\n`)
    return 0
  }
  if (rawArgs.length === 0) {
    process.stderr.write(`${usageFor(process.stderr, await renderUsage(main))}\n`)
    return 1
  }
  // Checked before citty looks: its search would load every subcommand's module to read aliases.
  await resolveCommand(main, rawArgs.slice(0, 1))
  try {
    await runCommand(main, { rawArgs })
  } catch (error) {
    // citty's CLIError (not exported): unknown command, missing positional, bad enum value.
    if (error instanceof Error && error.name === 'CLIError') {
      const code = (error as Error & { code?: string }).code
      let message = stripVTControlCharacters(error.message)
      if (code === 'E_UNKNOWN_COMMAND') {
        const names = Object.keys((await resolve(main.subCommands)) ?? {})
        message = `Unknown command \`${rawArgs.find((a) => !a.startsWith('-')) ?? ''}\`. Commands: ${names.join(', ')}. See \`preencode --help\`.`
      } else {
        const command = rawArgs.find((a) => !a.startsWith('-'))
        message = `${message.replace(/\.?$/, '.')} See \`preencode ${command ? `${command} ` : ''}--help\`.`
      }
      throw userError('cli', message, { cause: error })
    }
    throw error
  }
  return 0
}

type Resolvable<T> = T | Promise<T> | (() => T) | (() => Promise<T>)

async function resolve<T>(value: Resolvable<T>): Promise<T> {
  return typeof value === 'function' ? (value as () => T | Promise<T>)() : value
}

/** Follows the leading positional words through `subCommands`: `compress --help` -> compress. */
async function resolveCommand(
  command: CommandDef,
  rawArgs: string[],
  parent?: CommandDef,
): Promise<[CommandDef, CommandDef | undefined]> {
  const subCommands = await resolve(command.subCommands)
  const name = rawArgs.find((arg) => !arg.startsWith('-'))
  if (!subCommands || name === undefined) return [command, parent]
  const sub = subCommands[name]
  if (sub === undefined)
    throw userError('cli', `Unknown command \`${name}\`. Commands: ${Object.keys(subCommands).join(', ')}.`)
  return resolveCommand(await resolve(sub), rawArgs.slice(rawArgs.indexOf(name) + 1), command)
}

/** citty colours its usage unless NO_COLOR/CI is set; a pipe or a file gets plain text. Lines fit 80 columns. */
function usageFor(stream: OutputStream, usage: string): string {
  return tidyUsage(wantsColor(stream) ? usage : stripVTControlCharacters(usage))
}
