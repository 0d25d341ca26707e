// `s3://bucket/prefix` parsing, apart from s3.ts so that recognising an S3 target does not load
// the AWS SDK.
import { userError } from '@preencode/core'

/** Parses `s3://bucket/prefix` into bucket and prefix. */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url)
  if (!match?.[1])
    throw userError('deploy', `"${url}" is not an S3 target; expected s3://bucket or s3://bucket/prefix.`)
  return { bucket: match[1], prefix: match[2] ?? '' }
}
