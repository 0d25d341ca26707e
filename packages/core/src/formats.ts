/** The content codings preencode produces, named as users write them. */
export type Format = 'gzip' | 'brotli' | 'zstd'

export interface FormatInfo {
  readonly format: Format
  /** The Content-Encoding token (RFC 9110 §8.4.1). */
  readonly encoding: 'gzip' | 'br' | 'zstd'
  /** The sidecar file suffix, dot included. */
  readonly extension: '.gz' | '.br' | '.zst'
  /** Accepted quality/level range, inclusive. */
  readonly levels: readonly [min: number, max: number]
  readonly defaultLevel: number
}

export const FORMATS: Readonly<Record<Format, FormatInfo>> = Object.freeze({
  gzip: { format: 'gzip', encoding: 'gzip', extension: '.gz', levels: [1, 9], defaultLevel: 9 },
  brotli: { format: 'brotli', encoding: 'br', extension: '.br', levels: [0, 11], defaultLevel: 11 },
  zstd: { format: 'zstd', encoding: 'zstd', extension: '.zst', levels: [1, 22], defaultLevel: 19 },
})

/** Every format, in the order a server should prefer them when sizes tie (smallest usually first). */
export const ALL_FORMATS: readonly Format[] = Object.freeze(['brotli', 'zstd', 'gzip'])

/** Browsers refuse zstd frames with a window above 8 MiB (RFC 9659 §3); Chrome fails the page. */
export const ZSTD_MAX_WINDOW_LOG = 23

const BY_EXTENSION = new Map<string, FormatInfo>(Object.values(FORMATS).map((f) => [f.extension, f]))
const BY_ENCODING = new Map<string, FormatInfo>(Object.values(FORMATS).map((f) => [f.encoding, f]))

export function isFormat(value: unknown): value is Format {
  return typeof value === 'string' && Object.hasOwn(FORMATS, value)
}

/** `app.js.br` -> brotli info; `app.js` -> undefined. */
export function formatOfVariantPath(path: string): FormatInfo | undefined {
  const dot = path.lastIndexOf('.')
  return dot === -1 ? undefined : BY_EXTENSION.get(path.slice(dot))
}

export function formatOfEncoding(encoding: string): FormatInfo | undefined {
  return BY_ENCODING.get(encoding.toLowerCase())
}

/** `app.js.br` -> `app.js`; a path without a variant suffix is returned unchanged. */
export function stripVariantExtension(path: string): string {
  const info = formatOfVariantPath(path)
  return info ? path.slice(0, -info.extension.length) : path
}
