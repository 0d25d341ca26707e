// Where the project's own tools live, free loopback ports, and long-running processes that
// always stop (at the latest when this process exits).
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** Binaries the set-up builds from the Go module proxy (caddy, minio). */
export const GO_BIN = join(REPO_ROOT, '.tools', 'go', 'bin')

/** Path of a tool the set-up installs: `.tools/go/bin/<name>` first, then the system's. */
export function toolPath(name: string): string {
  const local = join(GO_BIN, name)
  if (existsSync(local)) return local
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/bin']) {
    if (existsSync(join(dir, name))) return join(dir, name)
  }
  throw new Error(`${name} is not installed; run scripts/setup.sh --test`)
}

/** Whether `toolPath(name)` finds the tool (for `describe.skipIf`). */
export function hasTool(name: string): boolean {
  try {
    toolPath(name)
    return true
  } catch {
    return false
  }
}

/** A port the kernel just handed out on 127.0.0.1, free at the time of the call. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolvePort(port))
    })
  })
}

export async function waitForPort(port: number, timeoutMs = 20_000, host = '127.0.0.1'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const ok = await new Promise<boolean>((done) => {
      const socket = connect(port, host)
      socket.once('connect', () => {
        socket.destroy()
        done(true)
      })
      socket.once('error', () => done(false))
    })
    if (ok) return
    if (Date.now() > deadline) throw new Error(`nothing listened on ${host}:${port} within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export interface RunningProcess {
  readonly name: string
  readonly child: ChildProcess
  /** Everything it printed so far, stdout and stderr interleaved: attach it when a test fails. */
  output(): string
  stop(): Promise<void>
}

const running = new Set<RunningProcess>()
process.once('exit', () => {
  for (const p of running) p.child.kill('SIGKILL')
})

/** Starts a long-running process and, if `port` is given, waits until it accepts connections. */
export async function startProcess(
  name: string,
  command: string,
  args: string[],
  options: { port?: number; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<RunningProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout?.on('data', (d: Buffer) => {
    log += d.toString()
  })
  child.stderr?.on('data', (d: Buffer) => {
    log += d.toString()
  })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const proc: RunningProcess = {
    name,
    child,
    output: () => log,
    async stop() {
      running.delete(proc)
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    },
  }
  running.add(proc)
  if (options.port !== undefined) {
    try {
      await Promise.race([
        waitForPort(options.port, options.timeoutMs),
        exited.then(() => {
          throw new Error(`${name} exited with ${child.exitCode}`)
        }),
      ])
    } catch (error) {
      await proc.stop()
      throw new Error(`${name} did not start: ${(error as Error).message}\n${log}`)
    }
  }
  return proc
}

/** A throw-away directory, removed by the returned function. */
export async function tempDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `preencode-${prefix}-`))
  return { path, remove: () => rm(path, { recursive: true, force: true }) }
}
