// MinIO (built into .tools/go/bin by the set-up) on 127.0.0.1 with a data directory of its own,
// ready once its health endpoint says so. Can be killed and restarted on the same port and data,
// as the tests of an interrupted deploy or a shared cache going down need.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { freePort, type RunningProcess, startProcess, toolPath } from '../process.ts'
import { type ServerRoot, type StartOptions, serverRoot } from './launch.ts'

/** Root credentials of every MinIO started here; tests check the secret is never printed. */
export const MINIO_USER = 'preencode-test'
export const MINIO_SECRET = 'pr3encode-S3cret-do-not-print'

export interface MinioOptions extends StartOptions {
  /** How long to wait for the port and then for readiness, each. @default 60000 */
  timeoutMs?: number
}

export interface Minio {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string
  readonly port: number
  readonly dataDir: string
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string }
  /** The current process (a new one after `restart`). */
  readonly process: RunningProcess
  /** Stops the server; the data stays for `restart`. */
  stop(): Promise<void>
  /** Kills the server at once (SIGKILL), as a crash would. */
  kill(): void
  /** Starts it again on the same port and data. */
  restart(): Promise<void>
  /** Stops the server and removes its root if it is a temp dir. */
  remove(): Promise<void>
}

/** Starts MinIO on a free (or the given) port with `<root>/data` as its store. */
export async function startMinio(options: MinioOptions = {}): Promise<Minio> {
  const root = await serverRoot('minio', options.dir)
  const port = options.port ?? (await freePort())
  const consolePort = await freePort()
  const dataDir = join(root.path, 'data')
  await mkdir(dataDir, { recursive: true })
  const endpoint = `http://127.0.0.1:${port}`
  const timeoutMs = options.timeoutMs ?? 60_000
  let proc: RunningProcess
  try {
    proc = await launch(root, dataDir, port, consolePort, timeoutMs)
  } catch (error) {
    await root.remove()
    throw error
  }
  return {
    endpoint,
    port,
    dataDir,
    credentials: { accessKeyId: MINIO_USER, secretAccessKey: MINIO_SECRET },
    get process() {
      return proc
    },
    stop: () => proc.stop(),
    kill: () => {
      proc.child.kill('SIGKILL')
    },
    async restart() {
      await proc.stop()
      proc = await launch(root, dataDir, port, consolePort, timeoutMs)
    },
    async remove() {
      await proc.stop()
      await root.remove()
    },
  }
}

async function launch(
  root: ServerRoot,
  dataDir: string,
  port: number,
  consolePort: number,
  timeoutMs: number,
): Promise<RunningProcess> {
  const proc = await startProcess(
    'minio',
    toolPath('minio'),
    ['server', dataDir, '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`, '--quiet'],
    {
      port,
      timeoutMs,
      cwd: root.path,
      env: {
        MINIO_ROOT_USER: MINIO_USER,
        MINIO_ROOT_PASSWORD: MINIO_SECRET,
        MINIO_BROWSER: 'off',
        MINIO_UPDATE: 'off',
      },
    },
  )
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/minio/health/ready`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) return proc
    if (Date.now() > deadline) {
      await proc.stop()
      throw new Error(`MinIO at 127.0.0.1:${port} not ready in ${timeoutMs} ms:\n${proc.output()}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}
