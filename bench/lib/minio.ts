// MinIO as a real process on a free loopback port with a throw-away data directory, and a
// bucket in it, for the deploy benchmark.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { freePort, startProcess, toolPath, type RunningProcess } from '@preencode/test-utils'

export const MINIO_USER = 'preencode-bench'
export const MINIO_SECRET = 'preencode-bench-secret'

export interface Minio {
  endpoint: string
  process: RunningProcess
  credentials: { accessKeyId: string; secretAccessKey: string }
  createBucket(name: string): Promise<void>
  stop(): Promise<void>
}

/** The few parts of @aws-sdk/client-s3 used here (typed by hand: the bench needs four calls). */
interface S3Sdk {
  S3Client: new (config: object) => { send(command: unknown): Promise<unknown>; destroy(): void }
  CreateBucketCommand: new (input: { Bucket: string }) => unknown
}

export async function startMinio(dir: string): Promise<Minio> {
  const data = join(dir, 'data')
  await mkdir(data, { recursive: true })
  const port = await freePort()
  const consolePort = await freePort()
  const endpoint = `http://127.0.0.1:${port}`
  const proc = await startProcess(
    'minio',
    toolPath('minio'),
    ['server', data, '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`, '--quiet'],
    {
      port,
      timeoutMs: 60_000,
      env: {
        MINIO_ROOT_USER: MINIO_USER,
        MINIO_ROOT_PASSWORD: MINIO_SECRET,
        MINIO_BROWSER: 'off',
        MINIO_UPDATE: 'off',
      },
    },
  )
  for (const deadline = Date.now() + 30_000; ; ) {
    const ready = await fetch(`${endpoint}/minio/health/ready`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) break
    if (Date.now() > deadline) {
      await proc.stop()
      throw new Error(`MinIO at ${endpoint} not ready in 30 s:\n${proc.output()}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  const credentials = { accessKeyId: MINIO_USER, secretAccessKey: MINIO_SECRET }
  return {
    endpoint,
    process: proc,
    credentials,
    async createBucket(name) {
      // The bench does not depend on the AWS SDK itself: borrow @preencode/deploy's copy.
      const s3 = (await import('@aws-sdk/client-s3')) as S3Sdk
      const client = new s3.S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials })
      try {
        await client.send(new s3.CreateBucketCommand({ Bucket: name }))
      } finally {
        client.destroy()
      }
    },
    stop: () => proc.stop(),
  }
}
