import { userError } from '../errors.js'

/** Where a shared cache lives: an S3-compatible bucket and key prefix. */
export interface SharedCacheLocation {
  /** As the user wrote it, `s3://bucket/prefix`. */
  url: string
  bucket: string
  /** Key prefix, empty or ending in `/`. */
  prefix: string
  /** A custom endpoint (MinIO, R2…); undefined for AWS. */
  endpoint: string | undefined
}

/** True for a cache location that names a bucket rather than a directory. */
export function isSharedCacheUrl(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('s3://')
}

/**
 * Parses `s3://bucket/prefix`. The endpoint is the option's, else the standard
 * `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL` variables (what the AWS CLI and SDKs read), else AWS.
 */
export function parseSharedCacheUrl(
  url: string,
  endpoint: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): SharedCacheLocation {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url)
  if (!match)
    throw userError(
      'options',
      `\`cache\` is \`${url}\`; a shared cache is s3://bucket or s3://bucket/prefix (bucket: 3-63 lowercase letters, digits, dots, hyphens).`,
    )
  const rawPrefix = (match[2] ?? '').replace(/^\/+/, '')
  const prefix = rawPrefix === '' ? '' : rawPrefix.replace(/\/*$/, '/')
  const chosen = endpoint ?? (env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined)
  if (chosen !== undefined && !/^https?:\/\/[^/\s]+/.test(chosen)) {
    throw userError(
      'options',
      `\`cacheEndpoint\` is \`${chosen}\`; it must be an http(s) URL such as http://127.0.0.1:9000.`,
    )
  }
  return { url, bucket: match[1]!, prefix, endpoint: chosen }
}

/** An endpoint for a message or a manifest: a `user:password@` in it is never printed nor recorded. */
export function withoutUserInfo(endpoint: string): string {
  try {
    const url = new URL(endpoint)
    url.username = ''
    url.password = ''
    return url.origin + (url.pathname === '/' ? '' : url.pathname)
  } catch {
    return endpoint.replace(/\/\/[^/@]*@/, '//')
  }
}
