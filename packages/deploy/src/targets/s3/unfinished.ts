// Multipart uploads an interrupted deploy left behind. A deploy killed (or cut off from the
// store) in the middle of a multipart upload never sends AbortMultipartUpload, and S3 keeps and
// bills the uploaded parts until someone aborts them. Before uploading a key in parts, the S3
// target lists that key's unfinished uploads and aborts them: they are ours (the same key under
// the site's prefix), and listing by the exact key works on MinIO too, which lists nothing for a
// wider prefix. A key the site no longer has is left to the lifecycle rule in the docs.
import { AbortMultipartUploadCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3'
import type { TargetContext } from '../../plan/target.js'

export interface UnfinishedUploadsOptions {
  client: S3Client
  bucket: string
  /** The site's key prefix (`www/` or ''). */
  prefix: string
  /** Names the target in notes and warnings. */
  description: string
  /** The target's retrying call, which turns failures into user errors naming the target. */
  call: <T>(action: string, context: TargetContext, attempt: () => Promise<T>) => Promise<T>
}

export function unfinishedUploads(options: UnfinishedUploadsOptions): {
  abort(key: string, context: TargetContext): Promise<void>
} {
  const { client, bucket: Bucket, prefix, description, call } = options
  let warned = false
  return {
    async abort(key, context) {
      const Key = prefix + key
      const listed = await call(`listing unfinished uploads of ${key}`, context, async () => {
        try {
          return await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: Key }))
        } catch (error) {
          if (notPermitted(error)) return undefined
          throw error
        }
      })
      if (!listed) {
        if (!warned)
          context.emit({
            type: 'warning',
            message: `${description}: cannot list unfinished multipart uploads (s3:ListBucketMultipartUploads refused): parts left by an interrupted deploy are not aborted; add an AbortIncompleteMultipartUpload lifecycle rule.`,
          })
        warned = true
        return
      }
      for (const upload of listed.Uploads ?? []) {
        if (upload.Key !== Key || !upload.UploadId) continue
        const UploadId = upload.UploadId
        await call(`aborting an unfinished upload of ${key}`, context, () =>
          client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })),
        )
        const started = upload.Initiated ? ` started ${upload.Initiated.toISOString()}` : ''
        context.emit({
          type: 'note',
          message: `${description}: aborted an unfinished multipart upload of ${key}${started} (left by an interrupted deploy).`,
        })
      }
    },
  }
}

/** Access denied, or an operation the store does not implement. */
function notPermitted(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined
  return e?.name === 'AccessDenied' || e?.name === 'NotImplemented' || e?.$metadata?.httpStatusCode === 403
}
