// Runs a process to its end and collects what it printed: for tests of a command-line program
// (the built `preencode`), where the exit code, the signal and the output are what is checked.
import { spawn } from 'node:child_process'

/** How a process ended and what it printed. */
export interface CollectedRun {
  /** Exit code; null when a signal ended it. */
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface CollectOptions {
  /** @default the current directory */
  cwd?: string
  /** The whole environment. @default process.env */
  env?: NodeJS.ProcessEnv
}

/** Runs `command` with `args` (no shell, stdin closed) to its end; rejects only when it cannot start. */
export function runCollected(
  command: string,
  args: readonly string[],
  options: CollectOptions = {},
): Promise<CollectedRun> {
  return new Promise((done, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
    })
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
    })
    child.on('error', reject)
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }))
  })
}
