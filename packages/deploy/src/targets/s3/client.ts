// The S3 client of the S3 target: core's SDK settings (`s3ClientConfig`, shared with the shared
// cache: checksums only when required, no console output, the silence timeout) with one attempt
// per call (the retries are ours), and a middleware that counts and
// reports every request (`onRequest`, `requestCount`).
import { S3Client } from '@aws-sdk/client-s3'
import { s3ClientConfig } from '@preencode/core/internal'
import type { S3TargetOptions } from './options.js'

/**
 * A test seam, not an option: a function under this key in the options is called with each
 * request's key and whether its body went out as a stream (true) or a buffer in memory.
 */
export const BODY_PROBE: unique symbol = Symbol('preencode.s3.bodyProbe')
type BodyProbe = (key: string | undefined, streamed: boolean) => void

/** The client, and the number of requests it has sent so far. */
export function s3Client(
  options: S3TargetOptions,
  timeouts: { connectionMs: number; requestMs: number },
): { client: S3Client; requestCount: () => number } {
  const client = new S3Client(
    s3ClientConfig({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // Retries are ours (with jitter, and visible in events); one attempt per SDK call.
      maxAttempts: 1,
      connectionMs: timeouts.connectionMs,
      silenceMs: timeouts.requestMs,
    }),
  )
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
