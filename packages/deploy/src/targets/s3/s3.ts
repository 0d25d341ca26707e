// The S3-compatible target (AWS S3, MinIO, R2…). Objects are written with the metadata a CDN
// needs to serve them as they are: the original's Content-Type, Content-Encoding for variants
// (sibling keys `app.js.br`), Cache-Control by class, and `x-amz-meta-preencode-sha256` for
// change detection.
import { createReadStream } from 'node:fs'
import { join } from 'node:path'
import { DeleteObjectsCommand, PutObjectCommand, type PutObjectCommandInput } from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { userError } from '@preencode/core'
import { deployedVersionSource, type PreviousVersionSource, runPool, withOpenFiles } from '@preencode/core/internal'
import type { PlannedPhase, PlannedUpload, RemoteObject, RemoteState, SiteObject } from '../../plan/plan.js'
import { API_LABEL, checkDeploySettings } from '../../plan/setting-rules.js'
import { DEPLOY_STATE_FILENAME, type DeployState, type StoredObject } from '../../plan/state.js'
import type { DeployTarget, PhaseResult, TargetContext } from '../../plan/target.js'
import { type ListedObject, S3Bucket } from './bucket.js'
import { s3Client } from './client.js'
import {
  DEFAULT_CONNECTION_TIMEOUT_MS,
  DEFAULT_MULTIPART_THRESHOLD,
  DEFAULT_PART_SIZE,
  DEFAULT_TIMEOUT,
  type S3TargetOptions,
} from './options.js'
import { unfinishedUploads } from './unfinished.js'

export type { S3Credentials, S3RequestRecord, S3TargetOptions } from './options.js'
export { DEFAULT_MULTIPART_THRESHOLD, DEFAULT_PART_SIZE } from './options.js'

const MIN_PART_SIZE = 5 * 1024 * 1024
/** DeleteObjects takes at most 1000 keys per request. */
const DELETE_BATCH_SIZE = 1000
const METADATA_SHA256 = 'preencode-sha256'

/** An S3-compatible target. Its client is created at once; nothing is sent until the deploy runs. */
export function s3Target(options: S3TargetOptions): DeployTarget {
  const prefix = options.prefix ? options.prefix.replace(/^\/+/, '').replace(/\/*$/, '/') : ''
  if (!options.bucket) throw userError('deploy', 'The S3 target needs a bucket (s3://bucket/prefix).')
  const partSize = options.partSize ?? DEFAULT_PART_SIZE
  if (partSize < MIN_PART_SIZE)
    throw userError('deploy', `partSize must be at least ${MIN_PART_SIZE} bytes (S3's minimum); got ${partSize}.`)
  const timeouts = checkTimeouts(options)
  const description = `s3://${options.bucket}/${prefix}${options.endpoint ? ` (endpoint ${options.endpoint})` : ''}`
  const secrets = [
    options.credentials?.secretAccessKey,
    options.credentials?.sessionToken,
    process.env.AWS_SECRET_ACCESS_KEY,
    process.env.AWS_SESSION_TOKEN,
  ]
  const { client, requestCount } = s3Client(options, timeouts)
  const bucket = new S3Bucket({
    client,
    bucket: options.bucket,
    prefix,
    description,
    secrets,
    timeouts,
    retry: options.retry,
    label: options.label,
  })
  const threshold = options.multipartThreshold ?? DEFAULT_MULTIPART_THRESHOLD
  const unfinished = unfinishedUploads({
    client,
    bucket: options.bucket,
    prefix,
    description,
    call: <T>(action: string, context: TargetContext, attempt: () => Promise<T>) =>
      bucket.call(action, context, attempt),
  })
  const t: S3State = { bucket, description, sizes: { partSize, threshold }, unfinished, stored: {} }
  return {
    kind: 's3',
    description,
    previousVersions: (context) => previousVersions(t, context),
    readRemote: (objects, context) => readRemote(t, objects, context),
    uploadPhase: (phase, context) => uploadPhase(t, phase, context),
    storedObjects: () => ({ ...t.stored }),
    writeState: (state, context) => writeState(t, state, context),
    deleteKeys: (keys, context) => deleteKeys(t, keys, context),
    requestCount,
    close: async () => client.destroy(),
  }
}

/** The two timeouts in ms: the request timeout is the deploy setting `timeout` (seconds), one rule. */
function checkTimeouts(options: S3TargetOptions): { connectionMs: number; requestMs: number } {
  if ('requestTimeoutMs' in options)
    throw userError('options', '`requestTimeoutMs` is now `timeout`, in seconds (default 30).')
  checkDeploySettings({ timeout: options.timeout }, API_LABEL)
  const connectionMs = options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS
  if (!Number.isFinite(connectionMs) || connectionMs <= 0)
    throw userError(
      'options',
      `\`connectionTimeoutMs\` must be a number of milliseconds > 0; got ${JSON.stringify(connectionMs)}.`,
    )
  return { connectionMs, requestMs: (options.timeout ?? DEFAULT_TIMEOUT) * 1000 }
}

/** One S3 target's state, which its functions below share. */
interface S3State {
  readonly bucket: S3Bucket
  readonly description: string
  readonly sizes: { partSize: number; threshold: number }
  readonly unfinished: ReturnType<typeof unfinishedUploads>
  /** Hashes and ETags of what this deploy wrote or checked (`storedObjects`). */
  readonly stored: Record<string, StoredObject>
}

async function previousVersions(t: S3State, context: TargetContext): Promise<PreviousVersionSource> {
  const listed = await t.bucket.listAll(context)
  const state = listed.has(DEPLOY_STATE_FILENAME) ? await t.bucket.readState(context) : undefined
  return deployedVersionSource({
    description: t.description,
    keys: new Set(listed.keys()),
    deploys: state?.deploys,
    read: (key) => t.bucket.getObject(key, context),
  })
}

async function readRemote(t: S3State, objects: readonly SiteObject[], context: TargetContext): Promise<RemoteState> {
  const listed = await t.bucket.listAll(context)
  const state = listed.has(DEPLOY_STATE_FILENAME) ? await t.bucket.readState(context) : undefined

  const remote = new Map<string, RemoteObject>()
  for (const [key, item] of listed) remote.set(key, { size: item.size })
  const toHead = hashesFromState(objects, listed, state, remote)
  await runPool(toHead, context.concurrency, async (key) => {
    const head = await t.bucket.headObject(key, context)
    const sha256 = head.Metadata?.[METADATA_SHA256]
    remote.set(key, { size: head.ContentLength, sha256 })
    if (sha256) t.stored[key] = { sha256, etag: head.ETag, size: head.ContentLength }
  })
  return { objects: remote, state }
}

async function uploadPhase(t: S3State, phase: PlannedPhase, context: TargetContext): Promise<PhaseResult> {
  let bytes = 0
  await runPool(phase.uploads, context.concurrency, async (object) => {
    await putObject(t, object, context)
    bytes += object.size
    context.emit({ type: 'upload', key: object.key, bytes: object.size, phase: phase.phase })
  })
  return { uploaded: phase.uploads.length, bytes }
}

async function putObject(t: S3State, object: PlannedUpload, context: TargetContext): Promise<void> {
  const { client, bucket: Bucket, prefix } = t.bucket
  const { partSize, threshold } = t.sizes
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
  if (object.size >= threshold) await t.unfinished.abort(object.key, context)
  // The body is a read stream: one file handle per upload, under core's process-wide limit.
  const etag = await withOpenFiles(1, () =>
    t.bucket.call(`upload of ${object.key}`, context, async () => {
      if (object.size < threshold) return (await client.send(new PutObjectCommand(params()))).ETag
      const upload = new Upload({ client, params: params(), partSize, queueSize: 2, leavePartsOnError: false })
      return (await upload.done()).ETag
    }),
  )
  t.stored[object.key] = { sha256: object.sha256, etag, size: object.size }
}

async function writeState(t: S3State, state: DeployState, context: TargetContext): Promise<void> {
  const body = `${JSON.stringify(state)}\n`
  await t.bucket.call(`writing ${DEPLOY_STATE_FILENAME}`, context, () =>
    t.bucket.client.send(
      new PutObjectCommand({
        Bucket: t.bucket.bucket,
        Key: t.bucket.prefix + DEPLOY_STATE_FILENAME,
        Body: body,
        ContentType: 'application/json',
        CacheControl: 'no-store',
      }),
    ),
  )
}

async function deleteKeys(t: S3State, keys: readonly string[], context: TargetContext): Promise<void> {
  const batches: string[][] = []
  for (let i = 0; i < keys.length; i += DELETE_BATCH_SIZE) batches.push(keys.slice(i, i + DELETE_BATCH_SIZE))
  await runPool(batches, Math.min(2, context.concurrency), (batch) => deleteBatch(t, batch, context))
}

/** One DeleteObjects request; any key it could not delete fails the deploy. */
async function deleteBatch(t: S3State, batch: readonly string[], context: TargetContext): Promise<void> {
  const { client, bucket: Bucket, prefix } = t.bucket
  const result = await t.bucket.call(`deleting ${batch.length} stale objects`, context, () =>
    client.send(
      new DeleteObjectsCommand({
        Bucket,
        Delete: { Objects: batch.map((key) => ({ Key: prefix + key })), Quiet: true },
      }),
    ),
  )
  const errors = result.Errors ?? []
  if (errors.length === 0) return
  const first = errors
    .slice(0, 3)
    .map((e) => `${e.Key ?? '?'} (${e.Code ?? 'error'}: ${e.Message ?? ''})`)
    .join(', ')
  throw userError(
    'deploy',
    `${t.description}: ${errors.length} of ${batch.length} deletions failed: ${first}. Rerun the deploy to retry.`,
    { code: 'TARGET_FAILED' },
  )
}

/**
 * Hashes from the state where the object is still the one preencode wrote (same ETag and size),
 * set into `remote`; the keys left, whose hash only a HEAD of the object's metadata tells.
 */
function hashesFromState(
  objects: readonly SiteObject[],
  listed: ReadonlyMap<string, ListedObject>,
  state: DeployState | undefined,
  remote: Map<string, RemoteObject>,
): string[] {
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
  return toHead
}
