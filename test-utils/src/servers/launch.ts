// What every real server shares: a config root (its config, logs, pid and temp files), the
// command that runs it in the foreground, and a start that waits until it answers on its
// 127.0.0.1 port and always stops (at the latest when this process exits).
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { chmod, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { freePort, type RunningProcess, startProcess, tempDir } from '../process.ts'

/** A server's config root: `logs/` and `tmp/` inside, readable by the workers. */
export interface ServerRoot {
  readonly path: string
  readonly logs: string
  readonly tmp: string
  /** Removes the root if this module created it (a temp dir); a root the caller named is kept. */
  remove(): Promise<void>
}

/** How to run a server in the foreground, and how to only check its configuration. */
export interface ServerCommand {
  readonly name: string
  readonly command: string
  readonly args: string[]
  /** Arguments that check the configuration and exit (`nginx -t`, `apache2 -t`, `caddy validate`). */
  readonly checkArgs: string[]
  readonly env?: NodeJS.ProcessEnv
}

/** A running server on 127.0.0.1. */
export interface StartedServer {
  readonly name: string
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  readonly port: number
  readonly root: ServerRoot
  readonly process: RunningProcess
  /** The server's output and the log files in its root, for attaching to a failed test. */
  logs(): string
  /** Stops the server, then removes its root if it is a temp dir. */
  stop(): Promise<void>
}

/** Options every `startXxx` takes. */
export interface StartOptions {
  /** Config root to use (created if missing, kept on stop). @default a fresh temp dir, removed on stop */
  dir?: string
  /** Port to listen on (a browser's dictionaries are per origin: a restart may need the same one). @default a free port */
  port?: number
  /** How long to wait for the port. @default 20000 */
  timeoutMs?: number
}

export interface LaunchOptions {
  port: number
  root: ServerRoot
  timeoutMs?: number
}

/**
 * Creates `dir` (or a temp dir named after `name`) with `logs/` and `tmp/`, mode 0755: workers
 * started by root run as www-data or nobody and must be able to read it.
 */
export async function serverRoot(name: string, dir?: string): Promise<ServerRoot> {
  const temp = dir === undefined ? await tempDir(name) : undefined
  const path = temp?.path ?? dir!
  const root: ServerRoot = {
    path,
    logs: join(path, 'logs'),
    tmp: join(path, 'tmp'),
    remove: async () => temp?.remove(),
  }
  await mkdir(root.logs, { recursive: true })
  await mkdir(root.tmp, { recursive: true })
  await chmod(path, 0o755)
  return root
}

/** A free port unless the caller chose one. */
async function pickPort(port: number | undefined): Promise<number> {
  return port ?? (await freePort())
}

/**
 * The start every `startXxx` shares: a root named after `name` (or `options.dir`), a port (or
 * `options.port`), then `prepare` writes the config into the root and returns the command that
 * `launchServer` runs. A failing `prepare` removes a temp root.
 */
export async function startServer(
  name: string,
  options: StartOptions,
  prepare: (root: string, port: number) => Promise<ServerCommand>,
): Promise<StartedServer> {
  const root = await serverRoot(name, options.dir)
  const port = await pickPort(options.port)
  let command: ServerCommand
  try {
    command = await prepare(root.path, port)
  } catch (error) {
    await root.remove()
    throw error
  }
  return launchServer(command, { port, root, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) })
}

/** Starts `command` and waits until it answers on `port`; a failure carries the server's logs. */
export async function launchServer(command: ServerCommand, options: LaunchOptions): Promise<StartedServer> {
  const { port, root } = options
  const url = `http://127.0.0.1:${port}`
  let proc: RunningProcess
  try {
    proc = await startProcess(command.name, command.command, command.args, {
      port,
      ...(command.env ? { env: command.env } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    })
  } catch (error) {
    const logs = readServerLogs(root.path)
    await root.remove()
    throw new Error(`${(error as Error).message}${logs ? `\n${logs}` : ''}`, { cause: error })
  }
  return {
    name: command.name,
    url,
    port,
    root,
    process: proc,
    logs: () => `--- ${command.name} output ---\n${proc.output()}\n${readServerLogs(root.path)}`,
    async stop() {
      await proc.stop()
      await root.remove()
    },
  }
}

/** Runs the server's own configuration check; returns its exit status and output. */
export function checkServer(command: ServerCommand): { status: number | null; output: string } {
  const result = spawnSync(command.command, command.checkArgs, {
    env: { ...process.env, ...command.env },
    encoding: 'utf8',
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** The log files a server wrote into `<root>/logs` (Apache's error log, nginx's access log). */
export function readServerLogs(root: string): string {
  const logs = join(root, 'logs')
  try {
    return readdirSync(logs)
      .map((name) => `--- ${name} ---\n${readFileSync(join(logs, name), 'utf8')}`)
      .join('\n')
  } catch {
    return ''
  }
}
