import type { S3Client } from '@aws-sdk/client-s3'
import { userError } from '../errors.js'
import type { SharedCacheLocation } from '../options/shared-cache-location.js'
import { CountingGate } from '../pool/gate.js'
import { s3ClientConfig } from './s3-client.js'

/** The bytes a shared cache stores per key: `get` resolves undefined for a key never stored. */
export interface RemoteStore {
  /** `s3://bucket/prefix (endpoint …)`, for messages. Never holds a credential. */
  readonly description: string
  get(key: string): Promise<Buffer | undefined>
  put(key: string, body: Buffer): Promise<void>
  close(): void
}

/** Requests in flight at once: a site of 50,000 files must not open 150,000 sockets. */
const MAX_IN_FLIGHT = 16
/** A bucket that does not accept a connection within this is treated as unreachable (one warning, local work). */
const CONNECT_TIMEOUT_MS = 3000
/**
 * A request whose connection stays silent this long (nothing sent, nothing received) fails: an
 * endpoint that accepts connections and never answers then costs about two of these (one
 * retry), not the build (docs/shared-cache.md).
 */
export const SILENCE_TIMEOUT_MS = 5000

type S3Sdk = typeof import('@aws-sdk/client-s3')

/**
 * An S3-compatible store for cache entries. `@aws-sdk/client-s3` is loaded here, on first use
 * of an `s3://` cache only: a local cache never pays for it, and a project without a shared
 * cache need not install it. Credentials come from the SDK's standard chain (environment,
 * shared files, SSO, instance roles) and are never printed.
 */
export async function openS3Store(
  location: SharedCacheLocation,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RemoteStore> {
  let sdk: S3Sdk
  try {
    sdk = await import('@aws-sdk/client-s3')
  } catch (cause) {
    throw userError(
      'cache',
      `The shared cache ${location.url} needs @aws-sdk/client-s3: install it beside preencode (npm i -D @aws-sdk/client-s3).`,
      { cause, code: 'UNSUPPORTED_RUNTIME' },
    )
  }
  const client: S3Client = new sdk.S3Client(
    s3ClientConfig(
      {
        endpoint: location.endpoint,
        // One retry: a bucket that is down must cost one warning and seconds, not minutes.
        maxAttempts: 2,
        connectionMs: CONNECT_TIMEOUT_MS,
        silenceMs: SILENCE_TIMEOUT_MS,
      },
      env,
    ),
  )
  const requests = new CountingGate(MAX_IN_FLIGHT)
  const objectKey = (key: string): string => `${location.prefix}${key}`
  return {
    description: `${location.url}${location.endpoint ? ` (endpoint ${location.endpoint})` : ''}`,
    get: (key) =>
      requests.use(1, async () => {
        try {
          const response = await client.send(new sdk.GetObjectCommand({ Bucket: location.bucket, Key: objectKey(key) }))
          if (!response.Body) return undefined
          return Buffer.from(await response.Body.transformToByteArray())
        } catch (error) {
          if (isNotFound(error)) return undefined
          throw error
        }
      }),
    put: (key, body) =>
      requests.use(1, async () => {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: location.bucket,
            Key: objectKey(key),
            Body: body,
            ContentType: 'application/octet-stream',
          }),
        )
      }),
    close: () => client.destroy(),
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } }
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404
}
