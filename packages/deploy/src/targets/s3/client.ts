// The S3 client of the S3 target: the SDK settings a deploy needs (one attempt per call, our
// retries; checksums only when required; no console output) and a middleware that counts and
// reports every request (`onRequest`, `requestCount`).
import { S3Client } from '@aws-sdk/client-s3'
import type { S3TargetOptions } from './options.js'

/**
 * A test seam, not an option: a function under this key in the options is called with each
 * request's key and whether its body went out as a stream (true) or a buffer in memory.
 */
export const BODY_PROBE: unique symbol = Symbol('preencode.s3.bodyProbe')
type BodyProbe = (key: string | undefined, streamed: boolean) => void

const SILENT_LOGGER = { trace() {}, debug() {}, info() {}, warn() {}, error() {} }

/** The client, and the number of requests it has sent so far. */
export function s3Client(
  options: S3TargetOptions,
  region: string,
  timeouts: { connectionMs: number; requestMs: number },
): { client: S3Client; requestCount: () => number } {
  const client = new S3Client({
    region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle ?? options.endpoint !== undefined,
    credentials: options.credentials,
    // The SDK's defaults since 2025 (WHEN_SUPPORTED) send streamed bodies as aws-chunked with a
    // trailing checksum, and some stores then keep `aws-chunked` in Content-Encoding.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Retries are ours (with jitter, and visible in events); one attempt per SDK call.
    maxAttempts: 1,
    // The SDK falls back to console.warn when given its NoOpLogger; a library must not print.
    logger: SILENT_LOGGER,
    // `socketTimeout` is the inactivity limit that fails a request (TimeoutError). The handler's
    // `requestTimeout` only logs a warning unless `throwOnRequestTimeout`: with it alone, an
    // endpoint that accepts the connection and never answers hung deploys for 15 minutes.
    requestHandler: { connectionTimeout: timeouts.connectionMs, socketTimeout: timeouts.requestMs },
  })
  let requests = 0
  const probe = (options as { [BODY_PROBE]?: BodyProbe })[BODY_PROBE]
  client.middlewareStack.add(
    (next, context) => async (args) => {
      requests++
      const input = args.input as { Key?: string }
      const request = args.request as { headers?: Record<string, string>; body?: unknown } | undefined
      const body = request?.body
      const record = {
        operation: context.commandName ?? 'unknown',
        key: input.Key,
        contentEncoding: request?.headers?.['content-encoding'] ?? request?.headers?.['Content-Encoding'],
      }
      if (probe && body !== undefined && body !== null)
        probe(input.Key, typeof (body as { pipe?: unknown }).pipe === 'function')
      options.onRequest?.({ ...record, stage: 'start', ok: true })
      try {
        const result = await next(args)
        options.onRequest?.({ ...record, stage: 'end', ok: true })
        return result
      } catch (error) {
        options.onRequest?.({ ...record, stage: 'end', ok: false })
        throw error
      }
    },
    { step: 'finalizeRequest', name: 'preencodeRequestCounter', priority: 'low' },
  )
  return { client, requestCount: () => requests }
}
