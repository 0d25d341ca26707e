/**
 * The codec table: every content coding preencode produces, one entry each, in the order a
 * server should prefer them when sizes tie. Every package iterates this table (suffixes,
 * HTTP tokens, levels, encoder parameters) instead of spelling codings itself; adding a coding
 * is one file under `codecs/` and one line here.
 */

import { extensionOf } from '../paths.js'
import { brotli } from './brotli.js'
import type { Codec } from './codec.js'
import { dcb } from './dcb.js'
import { dcz } from './dcz.js'
import { gzip } from './gzip.js'
import { zstd } from './zstd.js'

/** The codec table: one entry per content coding (see the module comment above). */
export const CODECS = Object.freeze({ brotli, zstd, gzip })

/**
 * The dictionary codings of RFC 9842 (`dictionary-codec.ts`), in the same form: one file under
 * `codecs/` and one entry each. Kept apart from `CODECS` because they need a dictionary: they
 * are deltas against a version the browser holds, never per-file sidecars a user lists in `formats`.
 */
export const DICTIONARY_CODECS = Object.freeze({ dcb, dcz })

/** The content codings preencode produces, named as users write them. */
export type Format = keyof typeof CODECS
/** A Content-Encoding token of a coding in the table (`br` for brotli). */
export type Encoding = (typeof CODECS)[Format]['encoding']
/** The table entry of any format. */
export type AnyCodec = (typeof CODECS)[Format]

/** Every format, in the order a server should prefer them when sizes tie (smallest usually first). */
export const ALL_FORMATS: readonly Format[] = Object.freeze(Object.keys(CODECS) as Format[])
/**
 * The coding servers prefer (the table's first): what a visitor without a delta gets, the
 * size a delta is compared with, and a size budget's default.
 */
export const PREFERRED_FORMAT: Format = ALL_FORMATS[0]!

/**
 * The coding every HTTP client accepts (RFC 9110 §8.4.1.3): with `keepOriginals: false` its
 * variant stands for the original, and servers decode it for clients that accept no coding.
 */
export const FALLBACK_FORMAT = 'gzip' satisfies Format

/** Every Content-Encoding token, in the same order. */
export const ALL_ENCODINGS: readonly Encoding[] = Object.freeze(ALL_FORMATS.map((format) => CODECS[format].encoding))

const codecs: readonly AnyCodec[] = Object.values(CODECS)
const BY_EXTENSION = new Map<string, AnyCodec>(codecs.map((c) => [c.extension, c]))
const BY_TOKEN = new Map<string, AnyCodec>(
  codecs.flatMap((c) => [c.encoding, ...c.aliases].map((token): [string, AnyCodec] => [token, c])),
)

/** A format's entry with its parameter type erased, for code that handles every format alike. */
export function codecOf(format: Format): Codec {
  return CODECS[format]
}

export function isFormat(value: unknown): value is Format {
  return typeof value === 'string' && Object.hasOwn(CODECS, value)
}

/** `app.js.br` -> brotli's entry; `app.js` -> undefined. */
export function formatOfVariantPath(path: string): AnyCodec | undefined {
  return BY_EXTENSION.get(extensionOf(path))
}

/** A Content-Encoding token or an alias (`br`, `GZIP`, `x-gzip`) -> its entry; undefined when unknown. */
export function formatOfEncoding(token: string): AnyCodec | undefined {
  return BY_TOKEN.get(token.trim().toLowerCase())
}

/** `app.js.br` -> `app.js`; a path without a variant suffix is returned unchanged. */
export function stripVariantExtension(path: string): string {
  const info = formatOfVariantPath(path)
  return info ? path.slice(0, -info.extension.length) : path
}
