import { lookup, mimes } from 'mrmime'
import { extensionOf } from '../paths.js'

/**
 * Types worth compressing. Already-compressed formats (images other than SVG/ICO, woff2,
 * archives, audio, video) gain nothing and cost CPU, so they are left out on purpose.
 */
const COMPRESSIBLE_TYPES = new Set([
  'application/javascript',
  'application/json',
  'application/ld+json',
  'application/manifest+json',
  'application/wasm',
  'application/xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/xhtml+xml',
  'application/x-javascript',
  'application/vnd.ms-fontobject',
  'font/otf',
  'font/ttf',
  'font/collection',
  'image/svg+xml',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/bmp',
])

/** Extensions whose registry type is missing or wrong for serving. */
const TYPE_OVERRIDES: Readonly<Record<string, string>> = {
  map: 'application/json',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  js: 'text/javascript',
  webmanifest: 'application/manifest+json',
  md: 'text/markdown',
  ico: 'image/x-icon',
}

/** Never compressed even if a type lookup says text: they are compressed archives already. */
const ALREADY_COMPRESSED_EXTENSIONS = new Set(['gz', 'br', 'zst', 'zip', 'tgz', 'bz2', 'xz', '7z', 'woff', 'woff2'])

const FALLBACK_TYPE = 'application/octet-stream'

/** The extension as the type tables key it: lower case, no dot (`js`). */
function typeKeyOf(path: string): string {
  return extensionOf(path).slice(1).toLowerCase()
}

/** The bare media type for a path, e.g. `assets/app.js` -> `text/javascript`. */
export function mediaTypeOf(path: string): string {
  const extension = typeKeyOf(path)
  return TYPE_OVERRIDES[extension] ?? lookup(extension) ?? FALLBACK_TYPE
}

function needsCharset(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    mediaType === 'application/json' ||
    mediaType === 'application/manifest+json' ||
    mediaType === 'application/ld+json' ||
    mediaType === 'application/xml' ||
    mediaType === 'image/svg+xml' ||
    mediaType.endsWith('+xml')
  )
}

/** The Content-Type header value for a path: the media type plus `charset=utf-8` for text. */
export function contentTypeOf(path: string): string {
  const mediaType = mediaTypeOf(path)
  return needsCharset(mediaType) ? `${mediaType}; charset=utf-8` : mediaType
}

/** Whether a file of this name is worth compressing at all (before size and saving checks). */
export function isCompressible(path: string): boolean {
  const extension = typeKeyOf(path)
  if (ALREADY_COMPRESSED_EXTENSIONS.has(extension)) return false
  const mediaType = mediaTypeOf(path)
  return (
    mediaType.startsWith('text/') ||
    COMPRESSIBLE_TYPES.has(mediaType) ||
    mediaType.endsWith('+json') ||
    mediaType.endsWith('+xml')
  )
}

/**
 * Every extension (lower case, no dot) `isCompressible` accepts by type, sorted: what the
 * content-independent server configs give variant rules and a Content-Type to.
 */
export function compressibleExtensions(): string[] {
  const all = new Set([...Object.keys(mimes), ...Object.keys(TYPE_OVERRIDES)])
  return [...all].filter((extension) => isCompressible(`x.${extension}`)).sort()
}
