// The S3 target's side of the wire: one bucket and prefix, each request retried (timeouts
// apart) and its failure turned into one message naming the target, with no secret in it.

import type { HeadObjectCommandOutput } from '@aws-sdk/client-s3'
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3'
import { DEPLOY_STATE_FILENAME, type DeployState, parseDeployState } from '../../plan/state.js'
import type { TargetContext } from '../../plan/target.js'
import { isRetryableS3Error, isTimeout, redact, s3Error } from './errors.js'
import { type S3TargetOptions, TIMEOUT_RETRIES } from './options.js'
import { withRetry } from './retry.js'

/** What a listing tells of one object. */
export interface ListedObject {
  size: number | undefined
  etag: string | undefined
}

export interface S3BucketSettings {
  client: S3Client
  bucket: string
  /** The site's key prefix (`www/` or ''). */
  prefix: string
  description: string
  /** Redacted from every message. */
  secrets: readonly (string | undefined)[]
  timeouts: { connectionMs: number; requestMs: number }
  retry: S3TargetOptions['retry']
  /** Names `endpoint` and `region` in messages. */
  label: S3TargetOptions['label']
}

export class S3Bucket {
  readonly client: S3Client
  readonly bucket: string
  readonly prefix: string

  constructor(private readonly settings: S3BucketSettings) {
    this.client = settings.client
    this.bucket = settings.bucket
    this.prefix = settings.prefix
  }

  /** One request, retried; a failure becomes a user error naming the target and the action. */
  async call<T>(action: string, context: TargetContext, attempt: () => Promise<T>): Promise<T> {
    const { secrets, timeouts } = this.settings
    let timedOut = 0
    // A timeout is retried TIMEOUT_RETRIES times, other retryable errors `retry.retries` times.
    const retryable = (error: unknown): boolean =>
      isTimeout(error) ? ++timedOut <= TIMEOUT_RETRIES : isRetryableS3Error(error)
    try {
      return await withRetry(attempt, retryable, this.settings.retry, (n, delayMs, error) =>
        context.emit({
          type: 'retry',
          what: action,
          attempt: n,
          delayMs,
          error: redact(String((error as Error)?.name ?? error), secrets),
        }),
      )
    } catch (error) {
      throw s3Error(
        error,
        this.settings.description,
        action,
        secrets,
        { ...timeouts, attempts: timedOut },
        this.settings.label,
      )
    }
  }

  /** Every object under the prefix, keyed relative to it. */
  async listAll(context: TargetContext): Promise<Map<string, ListedObject>> {
    const { client, bucket: Bucket, prefix } = this
    const listed = new Map<string, ListedObject>()
    let token: string | undefined
    do {
      const page = await this.call('listing the bucket', context, () =>
        client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken: token })),
      )
      for (const item of page.Contents ?? []) {
        // A bare `prefix/` key is a folder marker some consoles create, not part of the site.
        if (item.Key && item.Key.length > prefix.length)
          listed.set(item.Key.slice(prefix.length), { size: item.Size, etag: item.ETag })
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    return listed
  }

  async readState(context: TargetContext): Promise<DeployState> {
    const text = await this.call(`reading ${DEPLOY_STATE_FILENAME}`, context, async () => {
      const response = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + DEPLOY_STATE_FILENAME }),
      )
      return (await response.Body?.transformToString('utf8')) ?? ''
    })
    return parseDeployState(text, `${this.settings.description} ${DEPLOY_STATE_FILENAME}`)
  }

  /** One object's bytes; undefined when it is gone (deleted since the listing). */
  async getObject(key: string, context: TargetContext): Promise<Buffer | undefined> {
    return this.call(`reading ${key}`, context, async () => {
      try {
        const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }))
        return response.Body ? Buffer.from(await response.Body.transformToByteArray()) : undefined
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined
        throw error
      }
    })
  }

  headObject(key: string, context: TargetContext): Promise<HeadObjectCommandOutput> {
    return this.call(`reading metadata of ${key}`, context, () =>
      this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + key })),
    )
  }
}
