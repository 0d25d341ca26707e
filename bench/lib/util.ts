// Small helpers shared by the parts: statistics, formatting, walking a directory, running a
// child process to completion, and checking that a workspace package is built.
import { spawn } from 'node:child_process'
import { readdir, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** The lower of the two middle values for an even count (a value that was measured; never flatters). */
export function lowerMedian(values: number[]): number {
  return values.length ? [...values].sort((a, b) => a - b)[(values.length - 1) >> 1]! : Number.NaN
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a'
  return ms >= 10_000
    ? `${(ms / 1000).toFixed(1)} s`
    : ms >= 1000
      ? `${(ms / 1000).toFixed(2)} s`
      : `${Math.round(ms)} ms`
}

export function fmtBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'n/a'
  if (bytes < 0) return `−${fmtBytes(-bytes)}`
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(2)} MiB`
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${bytes} B`
}

export function fmtInt(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a'
}

/** `0.42×`, or `n/a` when either side is missing or zero. */
export function fmtRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return 'n/a'
  return ratio >= 100 ? `${ratio.toFixed(0)}×` : ratio >= 10 ? `${ratio.toFixed(1)}×` : `${ratio.toFixed(3)}×`
}

export function ratio(a: number, b: number): number {
  return b > 0 && Number.isFinite(a) && Number.isFinite(b) ? a / b : Number.NaN
}

/** Every regular file under `root`, as POSIX paths relative to it, with sizes. */
export async function listFiles(root: string): Promise<Map<string, number>> {
  const files = new Map<string, number>()
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name)
      if (entry.isDirectory()) await walk(full)
      else if (entry.isFile()) files.set(relative(root, full).split(sep).join('/'), (await stat(full)).size)
    }
  }
  await walk(root)
  return files
}

export interface ChildResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  wallMs: number
}

/** Runs a command to completion, collecting its output (the tail of it, to bound memory). */
export function runChild(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ChildResult> {
  return new Promise((resolveRun, reject) => {
    const started = performance.now()
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    const keep = (s: string) => (s.length > 200_000 ? s.slice(-200_000) : s)
    child.stdout.on('data', (d: Buffer) => {
      stdout = keep(stdout + d.toString())
    })
    child.stderr.on('data', (d: Buffer) => {
      stderr = keep(stderr + d.toString())
    })
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined
    child.once('error', reject)
    child.once('close', (code, signal) => {
      if (timer) clearTimeout(timer)
      resolveRun({ code, signal, stdout, stderr, wallMs: performance.now() - started })
    })
  })
}

export function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0]!
}
