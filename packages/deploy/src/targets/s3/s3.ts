// The S3-compatible target (AWS S3, MinIO, R2…). Objects are written with the metadata a CDN
// needs to serve them as they are: the original's Content-Type, Content-Encoding for variants
// (sibling keys `app.js.br`), Cache-Control by class, and `x-amz-meta-preencode-sha256` for
// change detection.
import { createReadStream } from 'node:fs'
import { join } from 'node:path'
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type PutObjectCommandInput,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { deployedVersionSource, userError, withOpenFiles } from '@preencode/core/internal'
import type { PlannedPhase, PlannedUpload, RemoteObject, RemoteState, SiteObject } from '../../plan/plan.js'
import { runPool } from '@preencode/core/internal'
import { withRetry } from './retry.js'
import { s3Client } from './client.js'
import { unfinishedUploads } from './unfinished.js'
import { isRetryableS3Error, isTimeout, redact, s3Error } from './errors.js'
import { DEPLOY_STATE_FILENAME, parseDeployState, type DeployState, type StoredObject } from '../../plan/state.js'
import type { DeployTarget, PhaseResult, TargetContext } from '../../plan/target.js'
import {
  DEFAULT_CONNECTION_TIMEOUT_MS,
  DEFAULT_MULTIPART_THRESHOLD,
  DEFAULT_PART_SIZE,
  DEFAULT_REQUEST_TIMEOUT_MS,
  TIMEOUT_RETRIES,
  type S3TargetOptions,
} from './options.js'

export type { S3Credentials, S3RequestRecord, S3TargetOptions } from './options.js'
export { DEFAULT_MULTIPART_THRESHOLD, DEFAULT_PART_SIZE } from './options.js'

const MIN_PART_SIZE = 5 * 1024 * 1024
/** DeleteObjects takes at most 1000 keys per request. */
export const DELETE_BATCH_SIZE = 1000
const METADATA_SHA256 = 'preencode-sha256'

/** An S3-compatible target. Its client is created at once; nothing is sent until the deploy runs. */
export function s3Target(options: S3TargetOptions): DeployTarget {
  const prefix = options.prefix ? options.prefix.replace(/^\/+/, '').replace(/\/*$/, '/') : ''
  if (!options.bucket) throw userError('deploy', 'The S3 target needs a bucket (s3://bucket/prefix).')
  const partSize = options.partSize ?? DEFAULT_PART_SIZE
  if (partSize < MIN_PART_SIZE)
    throw userError('deploy', `partSize must be at least ${MIN_PART_SIZE} bytes (S3's minimum); got ${partSize}.`)
  const threshold = options.multipartThreshold ?? DEFAULT_MULTIPART_THRESHOLD
  const timeouts = {
    connectionMs: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
    requestMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  }
  for (const [name, value] of [
    ['connectionTimeoutMs', timeouts.connectionMs],
    ['requestTimeoutMs', timeouts.requestMs],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0)
      throw userError('options', `${name} must be a number of milliseconds > 0; got ${JSON.stringify(value)}.`)
  }
  const region = options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1'
  const description = `s3://${options.bucket}/${prefix}${options.endpoint ? ` (endpoint ${options.endpoint})` : ''}`
  const secrets = [
    options.credentials?.secretAccessKey,
    options.credentials?.sessionToken,
    process.env.AWS_SECRET_ACCESS_KEY,
    process.env.AWS_SESSION_TOKEN,
  ]
  const { client, requestCount } = s3Client(options, region, timeouts)
  const stored: Record<string, StoredObject> = {}
  const Bucket = options.bucket

  async function call<T>(action: string, context: TargetContext, attempt: () => Promise<T>): Promise<T> {
    let timedOut = 0
    // A timeout is retried TIMEOUT_RETRIES times, other retryable errors `retry.retries` times.
    const retryable = (error: unknown): boolean =>
      isTimeout(error) ? ++timedOut <= TIMEOUT_RETRIES : isRetryableS3Error(error)
    try {
      return await withRetry(attempt, retryable, options.retry, (n, delayMs, error) =>
        context.emit({
          type: 'retry',
          what: action,
          attempt: n,
          delayMs,
          error: redact(String((error as Error)?.name ?? error), secrets),
        }),
      )
    } catch (error) {
      throw s3Error(error, description, action, secrets, { ...timeouts, attempts: timedOut })
    }
  }

  const unfinished = unfinishedUploads({ client, bucket: Bucket, prefix, description, call })

  async function putObject(object: PlannedUpload, context: TargetContext): Promise<void> {
    const params = (): PutObjectCommandInput => ({
      Bucket,
      Key: prefix + object.key,
      Body: createReadStream(join(context.root, object.key)),
      ContentLength: object.size,
      ContentType: object.contentType,
      ContentEncoding: object.contentEncoding,
      CacheControl: object.cacheControl,
      Metadata: { [METADATA_SHA256]: object.sha256 },
    })
    if (object.size >= threshold) await unfinished.abort(object.key, context)
    // The body is a read stream: one file handle per upload, under core's process-wide limit.
    const etag = await withOpenFiles(1, () =>
      call(`upload of ${object.key}`, context, async () => {
        if (object.size < threshold) return (await client.send(new PutObjectCommand(params()))).ETag
        const upload = new Upload({ client, params: params(), partSize, queueSize: 2, leavePartsOnError: false })
        return (await upload.done()).ETag
      }),
    )
    stored[object.key] = { sha256: object.sha256, etag, size: object.size }
  }

  /** Every object under the prefix, keyed relative to it. */
  async function listAll(
    context: TargetContext,
  ): Promise<Map<string, { size: number | undefined; etag: string | undefined }>> {
    const listed = new Map<string, { size: number | undefined; etag: string | undefined }>()
    let token: string | undefined
    do {
      const page = await call('listing the bucket', context, () =>
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

  async function readState(context: TargetContext): Promise<DeployState> {
    const text = await call(`reading ${DEPLOY_STATE_FILENAME}`, context, async () => {
      const response = await client.send(new GetObjectCommand({ Bucket, Key: prefix + DEPLOY_STATE_FILENAME }))
      return (await response.Body?.transformToString('utf8')) ?? ''
    })
    return parseDeployState(text, `${description} ${DEPLOY_STATE_FILENAME}`)
  }

  /** One object's bytes; undefined when it is gone (deleted since the listing). */
  async function getObject(key: string, context: TargetContext): Promise<Buffer | undefined> {
    return call(`reading ${key}`, context, async () => {
      try {
        const response = await client.send(new GetObjectCommand({ Bucket, Key: prefix + key }))
        return response.Body ? Buffer.from(await response.Body.transformToByteArray()) : undefined
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined
        throw error
      }
    })
  }

  return {
    kind: 's3',
    description,

    async previousVersions(context: TargetContext) {
      const listed = await listAll(context)
      const state = listed.has(DEPLOY_STATE_FILENAME) ? await readState(context) : undefined
      return deployedVersionSource({
        description,
        keys: new Set(listed.keys()),
        deploys: state?.deploys,
        read: (key) => getObject(key, context),
      })
    },

    async readRemote(objects: readonly SiteObject[], context: TargetContext): Promise<RemoteState> {
      const listed = await listAll(context)
      const state = listed.has(DEPLOY_STATE_FILENAME) ? await readState(context) : undefined

      const remote = new Map<string, RemoteObject>()
      for (const [key, item] of listed) remote.set(key, { size: item.size })
      // Hashes: from the state when the object is still the one preencode wrote (same ETag and
      // size), otherwise from the object's metadata with a HEAD.
      const toHead: string[] = []
      for (const object of objects) {
        const item = listed.get(object.key)
        if (!item) continue
        const known = state?.objects[object.key]
        if (
          known &&
          known.etag !== undefined &&
          known.etag === item.etag &&
          (known.size === undefined || known.size === item.size)
        ) {
          remote.set(object.key, { size: item.size, sha256: known.sha256 })
        } else {
          toHead.push(object.key)
        }
      }
      await runPool(toHead, context.concurrency, async (key) => {
        const head = await call(`reading metadata of ${key}`, context, () =>
          client.send(new HeadObjectCommand({ Bucket, Key: prefix + key })),
        )
        const sha256 = head.Metadata?.[METADATA_SHA256]
        remote.set(key, { size: head.ContentLength, sha256 })
        if (sha256) stored[key] = { sha256, etag: head.ETag, size: head.ContentLength }
      })
      return { objects: remote, state }
    },

    async uploadPhase(phase: PlannedPhase, context: TargetContext): Promise<PhaseResult> {
      let bytes = 0
      await runPool(phase.uploads, context.concurrency, async (object) => {
        await putObject(object, context)
        bytes += object.size
        context.emit({ type: 'upload', key: object.key, bytes: object.size, phase: phase.phase })
      })
      return { uploaded: phase.uploads.length, bytes }
    },

    storedObjects: () => ({ ...stored }),

    async writeState(state: DeployState, context: TargetContext): Promise<void> {
      const body = `${JSON.stringify(state)}\n`
      await call(`writing ${DEPLOY_STATE_FILENAME}`, context, () =>
        client.send(
          new PutObjectCommand({
            Bucket,
            Key: prefix + DEPLOY_STATE_FILENAME,
            Body: body,
            ContentType: 'application/json',
            CacheControl: 'no-store',
          }),
        ),
      )
    },

    async deleteKeys(keys: readonly string[], context: TargetContext): Promise<void> {
      const batches: string[][] = []
      for (let i = 0; i < keys.length; i += DELETE_BATCH_SIZE) batches.push(keys.slice(i, i + DELETE_BATCH_SIZE))
      await runPool(batches, Math.min(2, context.concurrency), async (batch) => {
        const result = await call(`deleting ${batch.length} stale objects`, context, () =>
          client.send(
            new DeleteObjectsCommand({
              Bucket,
              Delete: { Objects: batch.map((key) => ({ Key: prefix + key })), Quiet: true },
            }),
          ),
        )
        const errors = result.Errors ?? []
        if (errors.length > 0) {
          const first = errors
            .slice(0, 3)
            .map((e) => `${e.Key ?? '?'} (${e.Code ?? 'error'}: ${e.Message ?? ''})`)
            .join(', ')
          throw userError(
            'deploy',
            `${description}: ${errors.length} of ${batch.length} deletions failed: ${first}. Rerun the deploy to retry.`,
            { code: 'TARGET_FAILED' },
          )
        }
      })
    },

    requestCount,

    async close(): Promise<void> {
      client.destroy()
    },
  }
}
