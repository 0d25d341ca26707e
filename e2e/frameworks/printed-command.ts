// A build that cannot complete the folder it deploys must say so in one `[preencode]` line
// naming the command that does (issue 34): the framework suite checks the line, runs the
// command as a user would, and looks at the folder again.
import { join } from 'node:path'
import { expect } from '@playwright/test'
import { run } from './build.ts'
import { type DeployedFolder, inspectDeployed, outputLines, WARNING_LINE } from './deployed.ts'

/**
 * Checks that `output` has the one warning line naming `command` (`preencode compress <folder>`),
 * runs it in `fixture`, and returns the folder after it.
 */
export async function completeAsPrinted(fixture: string, command: string, output: string): Promise<DeployedFolder> {
  const lines = outputLines(output).filter((line) => WARNING_LINE.test(line) && line.includes(command))
  expect(lines, `the one line naming \`${command}\``).toHaveLength(1)
  const [bin, ...args] = command.split(' ')
  const completed = await run(fixture, 'pnpm', ['exec', bin!, ...args])
  expect(completed.status, completed.output.slice(-3000)).toBe(0)
  return inspectDeployed(join(fixture, args.at(-1)!))
}
