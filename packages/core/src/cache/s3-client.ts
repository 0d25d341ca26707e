// The AWS SDK's settings for every bucket preencode talks to, the shared cache's and the deploy
// target's, with the workarounds both need. Types only: `@aws-sdk/client-s3` is loaded by the
// caller, and only when an `s3://` location is used.
import type { S3ClientConfig } from '@aws-sdk/client-s3'

/** Where the bucket is and how long to wait; the rest is the same for every caller. */
export interface S3ClientSetup {
  /** @default AWS_REGION, AWS_DEFAULT_REGION, else us-east-1 */
  region?: string | undefined
  /** An S3-compatible store's address (MinIO, R2…). */
  endpoint?: string | undefined
  /** @default true with an `endpoint`, else false */
  forcePathStyle?: boolean | undefined
  /** @default the SDK's credential chain (environment, shared files, SSO, instance roles) */
  credentials?: S3ClientConfig['credentials']
  /** Attempts per SDK call: a deploy retries by itself (1), the shared cache allows one retry (2). */
  maxAttempts: number
  /** A store that does not accept a connection within this fails the request. */
  connectionMs: number
  /** A request whose connection stays silent this long (nothing sent, nothing received) fails. */
  silenceMs: number
}

// The SDK falls back to console.warn when given its NoOpLogger; a library must not print.
const SILENT_LOGGER = { trace() {}, debug() {}, info() {}, warn() {}, error() {} }

/** The `S3Client` configuration for `setup`; `env` gives the default region. */
export function s3ClientConfig(setup: S3ClientSetup, env: NodeJS.ProcessEnv = process.env): S3ClientConfig {
  return {
    region: setup.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    endpoint: setup.endpoint,
    forcePathStyle: setup.forcePathStyle ?? setup.endpoint !== undefined,
    credentials: setup.credentials,
    // The SDK's defaults since 2025 (WHEN_SUPPORTED) send streamed bodies as aws-chunked with a
    // trailing checksum, and some stores then keep `aws-chunked` in Content-Encoding; a cache
    // entry carries its own checksum anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: setup.maxAttempts,
    logger: SILENT_LOGGER,
    // `socketTimeout` is the inactivity limit that fails a request (TimeoutError). The handler's
    // `requestTimeout` only logs a warning unless `throwOnRequestTimeout`: with it alone, an
    // endpoint that accepts the connection and never answers hung deploys for 15 minutes.
    requestHandler: { connectionTimeout: setup.connectionMs, socketTimeout: setup.silenceMs },
  }
}
