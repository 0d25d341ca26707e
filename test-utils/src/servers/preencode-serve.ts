// `preencode serve` (the built CLI) as a test starts it: on the port asked for (0: a free one),
// its start line read for the URL, stopped with SIGTERM and killed if it does not end.
import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from '../process.ts'

const BIN = process.env.PREENCODE_TEST_BIN ?? join(REPO_ROOT, 'packages/cli/dist/bin.js')
const START_TIMEOUT_MS = 20_000

export interface StartedPreencodeServe {
  /** The URL of its start line, e.g. `http://127.0.0.1:41234/`. */
  url: string
  /** Its output so far. */
  logs(): string
  /** SIGTERM; resolves to the exit code (SIGKILL after 5 s). */
  stop(): Promise<number | null>
}

/** Runs `preencode serve <dir> --port <port> ...args` and waits for its start line. */
export function startPreencodeServe(
  dir: string,
  args: readonly string[] = [],
  port = 0,
): Promise<StartedPreencodeServe> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', dir, '--port', String(port), ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    const code = await exited
    clearTimeout(timer)
    return code
  }
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      void stop()
      fail(new Error(`preencode serve did not start within ${START_TIMEOUT_MS} ms:\n${output}`))
    }, START_TIMEOUT_MS)
    const seen = (chunk: Buffer): void => {
      output += chunk.toString()
      const url = /^preencode serve: (\S+) /m.exec(output)?.[1]
      if (!url) return
      clearTimeout(timer)
      done({ url, logs: () => output, stop })
    }
    child.stdout?.on('data', seen)
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    void exited.then((code) => {
      clearTimeout(timer)
      fail(new Error(`preencode serve ended (exit ${String(code)}) before it started:\n${output}`))
    })
  })
}
