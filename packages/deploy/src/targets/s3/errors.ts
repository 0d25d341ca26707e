// Turns the SDK's errors into messages a user can act on, naming the target and never a secret.
import { type OptionLabel, type PreencodeError, userError } from '@preencode/core'
import { API_LABEL } from '../../plan/setting-rules.js'

interface SdkErrorShape {
  name?: string
  code?: string
  message?: string
  $retryable?: unknown
  $metadata?: { httpStatusCode?: number }
  cause?: unknown
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
])
const RETRYABLE_NAMES = new Set([
  'SlowDown',
  'RequestTimeout',
  'RequestTimeoutException',
  'InternalError',
  'ServiceUnavailable',
  'Throttling',
  'ThrottlingException',
  'TimeoutError',
  'RequestTimeTooSkewed',
  'XMinioServerNotInitialized',
])
const CREDENTIAL_NAMES = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'InvalidToken',
  'ExpiredToken',
  'InvalidClientTokenId',
])

function shape(error: unknown): SdkErrorShape {
  return typeof error === 'object' && error !== null ? (error as SdkErrorShape) : { message: String(error) }
}

/** The network error code (`ECONNREFUSED`…) anywhere in the cause chain, if any. */
function networkCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const { code, name, cause } = shape(current)
    if (code && NETWORK_CODES.has(code)) return code
    if (name && NETWORK_CODES.has(name)) return name
    if (name === 'TimeoutError') return 'ETIMEDOUT'
    current = cause
  }
  return undefined
}

/** A TimeoutError of the HTTP handler: no connection, or no answer, within the configured time. */
export function isTimeout(error: unknown): boolean {
  return shape(error).name === 'TimeoutError'
}

/** The limits a timeout message names. */
export interface TimeoutLimits {
  connectionMs: number
  requestMs: number
  /** Attempts that timed out. */
  attempts: number
}

/** Whether trying again may help: network failures, 5xx, throttling. Never credentials or a missing bucket. */
export function isRetryableS3Error(error: unknown): boolean {
  const e = shape(error)
  if (
    e.name &&
    (CREDENTIAL_NAMES.has(e.name) ||
      e.name === 'NoSuchBucket' ||
      e.name === 'AccessDenied' ||
      e.name === 'CredentialsProviderError')
  )
    return false
  if (networkCode(error)) return true
  if (e.name && RETRYABLE_NAMES.has(e.name)) return true
  if (e.$retryable) return true
  const status = e.$metadata?.httpStatusCode
  return status !== undefined && (status >= 500 || status === 429)
}

/** Removes every known secret from a text. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text
  for (const secret of secrets) {
    if (secret && secret.length >= 4) result = result.split(secret).join('***')
  }
  return result
}

/**
 * A user error naming the target, what was being done and why it failed. `cause` is dropped
 * when it could carry request details; the message keeps the SDK's error name and status.
 */
export function s3Error(
  error: unknown,
  target: string,
  action: string,
  secrets: readonly (string | undefined)[],
  timeouts?: TimeoutLimits,
  label: OptionLabel = API_LABEL,
): PreencodeError {
  const e = shape(error)
  const status = e.$metadata?.httpStatusCode
  const network = networkCode(error)
  let reason: string
  if (e.name === 'CredentialsProviderError' || /Could not load credentials/i.test(e.message ?? '')) {
    reason =
      'no AWS credentials found. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with ~/.aws/credentials'
  } else if (e.name && CREDENTIAL_NAMES.has(e.name)) {
    reason = `the credentials were refused (${e.name}). Check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or AWS_PROFILE for this endpoint`
  } else if (e.name === 'AccessDenied' || status === 403) {
    reason = `access denied (${e.name ?? 403}). The credentials lack s3:ListBucket, s3:GetObject, s3:PutObject or s3:DeleteObject on this bucket`
  } else if (e.name === 'NoSuchBucket') {
    reason = `the bucket does not exist. Create it first, or fix the bucket name, ${label('endpoint')} or ${label('region')}`
  } else if (e.name === 'PermanentRedirect' || e.name === 'AuthorizationHeaderMalformed' || status === 301) {
    reason = `the bucket is in another region (${e.name ?? status}). Set ${label('region')}`
  } else if (isTimeout(error) && timeouts) {
    const tries = timeouts.attempts > 1 ? ` (${timeouts.attempts} tries)` : ''
    reason = /establish a connection/.test(e.message ?? '')
      ? `no connection to the endpoint within ${seconds(timeouts.connectionMs)}${tries}. Check ${label('endpoint')} and that the server is running`
      : `the endpoint accepted the connection but sent no answer for ${seconds(timeouts.requestMs)}${tries}. Check ${label('endpoint')}, and that an S3-compatible server runs there`
  } else if (network) {
    reason = `cannot reach the endpoint (${network}). Check ${label('endpoint')} and that the server is running`
  } else {
    reason = `${e.name ?? 'Error'}${status ? ` (HTTP ${status})` : ''}: ${e.message ?? ''}`
  }
  return userError('deploy', redact(`${target}: ${action} failed: ${reason}.`, secrets), { code: 'TARGET_FAILED' })
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
