// Runs a generated CloudFront Function in node:vm. CloudFront's `cloudfront` module is not
// available here: `cf.kvs().get` is replaced by a lookup in the data `cloudfrontKeyValueStore`
// generated (rejecting a missing key, as CloudFront documents). Shared by the function's unit
// tests and the deploy test that follows its rewrites to the objects on MinIO.
import { runInNewContext } from 'node:vm'
import type { ManifestFile } from '@preencode/core'
import { cacheClassOf, resolveCachePolicy } from '@preencode/core/internal'

export interface CfHeader {
  value: string
  multiValue?: { value: string }[]
}

export interface CfRequest {
  uri: string
  headers: Record<string, CfHeader>
}

export interface CfResponse {
  statusCode: number
  headers: Record<string, CfHeader>
}

export type CfEvent =
  | { context?: { eventType: 'viewer-request' }; request: CfRequest }
  | { context: { eventType: 'viewer-response' }; request: CfRequest; response: CfResponse }

export type Handler = (event: CfEvent) => Promise<CfRequest & CfResponse>

/** The function's `handler`, with `cf.kvs()` answered from `kvsJson` (the import file's text). */
export function loadCloudfrontFunction(code: string, kvsJson: string): Handler {
  const data = new Map(
    (JSON.parse(kvsJson) as { data: { key: string; value: string }[] }).data.map((e) => [e.key, e.value]),
  )
  const cf = {
    kvs: () => ({
      get: async (key: string) => {
        const value = data.get(key)
        if (value === undefined) throw new Error(`Key ${key} not found`)
        return value
      },
    }),
  }
  const importLine = "import cf from 'cloudfront';"
  if (!code.includes(importLine)) throw new Error(`the function does not contain ${importLine}`)
  const context: { handler?: Handler; __cf: typeof cf } = { __cf: cf }
  runInNewContext(code.replace(importLine, 'var cf = __cf;'), context)
  return context.handler!
}

/** A viewer request with these headers (lower-case names; an array becomes a multi-valued header). */
export function viewerRequest(uri: string, headers: Record<string, string | string[] | undefined> = {}): CfEvent {
  const out: Record<string, CfHeader> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') out[name] = { value }
    else if (Array.isArray(value)) out[name] = { value: value[0]!, multiValue: value.map((v) => ({ value: v })) }
  }
  return { request: { uri, headers: out } }
}

const POLICY = resolveCachePolicy()

/** A manifest entry with these variants (sizes: original 5000, variants 100). */
export function manifestFile(path: string, encodings: Array<'br' | 'gzip' | 'zstd'>): ManifestFile {
  const ext = { br: '.br', gzip: '.gz', zstd: '.zst' } as const
  const format = { br: 'brotli', gzip: 'gzip', zstd: 'zstd' } as const
  return {
    path,
    size: 5000,
    sha256: '0'.repeat(64),
    mtimeMs: 0,
    contentType: 'text/plain',
    cacheClass: cacheClassOf(path, POLICY),
    cacheControl: POLICY.headers[cacheClassOf(path, POLICY)],
    originalOnDisk: true,
    variants: encodings.map((e) => ({
      format: format[e],
      encoding: e,
      path: path + ext[e],
      size: 100,
      sha256: '1'.repeat(64),
    })),
  }
}
