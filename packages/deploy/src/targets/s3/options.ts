// Options of the S3-compatible target, apart from its implementation so that importing the
// types (the CLI, the target registry) never loads the AWS SDK.
import type { OptionLabel } from '@preencode/core'
import type { RetryOptions } from './retry.js'

/** Static credentials; without them the SDK's standard chain (environment, shared files, SSO, IMDS) is used. */
export interface S3Credentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
}

/** One HTTP request seen by the client, for tests and diagnostics. */
export interface S3RequestRecord {
  operation: string
  key: string | undefined
  /** `start` before sending, `end` after the response (or failure). */
  stage: 'start' | 'end'
  ok: boolean
  /** The Content-Encoding header as sent (S3 stores it as sent; `aws-chunked` must not be in it). */
  contentEncoding?: string | undefined
}

/** `s3Target()`'s options: the bucket, its prefix and endpoint, credentials, parts, timeouts and retries. */
export interface S3TargetOptions {
  bucket: string
  /**
   * Key prefix under which the site lives; a trailing slash is added.
   * @default ''
   */
  prefix?: string
  /** A custom endpoint (MinIO, R2…), e.g. `http://127.0.0.1:9000`. @default AWS */
  endpoint?: string
  /** @default process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1' */
  region?: string
  /**
   * Path-style addressing (`endpoint/bucket/key`).
   * @default true when `endpoint` is set
   */
  forcePathStyle?: boolean
  /** @default the SDK's standard credential chain */
  credentials?: S3Credentials
  /**
   * Files at least this big are uploaded in parts with `@aws-sdk/lib-storage`.
   * @default 16777216 (16 MiB)
   */
  multipartThreshold?: number
  /**
   * Part size of multipart uploads (S3's minimum is 5 MiB).
   * @default 8388608 (8 MiB)
   */
  partSize?: number
  /** Back-off for retryable errors (network, 5xx, throttling). */
  retry?: RetryOptions
  /**
   * A connection not established within this many ms fails (and is retried like any network error).
   * @default 5000
   */
  connectionTimeoutMs?: number
  /**
   * A request during which the endpoint sends nothing for this many seconds fails: waiting for
   * the answer or for more of it, not counting time spent sending a body. Such a request is
   * retried once ({@link TIMEOUT_RETRIES}), so an endpoint that accepts connections and never
   * answers fails the deploy after about twice this. The same setting as the config file's
   * `deploy.timeout` and the CLI's `--timeout`.
   * @default 30
   */
  timeout?: number
  /** Called around every HTTP request the client sends. */
  onRequest?: (record: S3RequestRecord) => void
  /**
   * Names a setting (`endpoint`, `region`) in messages as the user set it: `createTarget` passes
   * its label (`--endpoint` from the CLI). @default the key, `` `endpoint` ``
   */
  label?: OptionLabel
}

export const DEFAULT_CONNECTION_TIMEOUT_MS = 5000
/** Seconds: see {@link S3TargetOptions.timeout}. */
export const DEFAULT_TIMEOUT = 30
/** Retries of a request that timed out (a silent endpoint rarely wakes up; other errors get `retry.retries`). */
export const TIMEOUT_RETRIES = 1
/** Files from this size up are uploaded in parts (`multipartThreshold`), in bytes. */
export const DEFAULT_MULTIPART_THRESHOLD = 16 * 1024 * 1024
/** The size of one part of a multipart upload (`partSize`), in bytes. */
export const DEFAULT_PART_SIZE = 8 * 1024 * 1024
