// Runs one process and collects its output: the rsync target's only contact with the system.
import { spawn } from 'node:child_process'

export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs `command` with `args` (no shell); rejects only when it cannot be started. */
export function spawnCollected(command: string, args: readonly string[]): Promise<RunResult> {
  return new Promise<RunResult>((done, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
    })
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => done({ code: code ?? 1, stdout, stderr }))
  })
}
