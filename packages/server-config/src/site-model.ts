/**
 * What the generators need to know about a site, derived once from the manifest: which URLs
 * have variants, in which order to try the variants, the Content-Type of each original
 * extension, and which files share a Cache-Control value. Pure; no I/O.
 */
import { ALL_ENCODINGS, ALL_FORMATS, CODECS, MANIFEST_FILENAME, type Manifest, type ManifestFile } from '@preencode/core'
import type { Encoding } from './negotiate.js'

/** Sidecar suffix per coding, from core's codec table. */
export const SUFFIX: Readonly<Record<Encoding, string>> = Object.freeze(
  Object.fromEntries(ALL_FORMATS.map((format) => [CODECS[format].encoding, CODECS[format].extension])) as Record<Encoding, string>,
)

/** One-letter codes used in generated variable values (`bzg` = br, then zstd, then gzip). */
export const LETTER: Readonly<Record<Encoding, 'b' | 'z' | 'g'>> = Object.freeze({ br: 'b', zstd: 'z', gzip: 'g' })

export interface FileModel {
  readonly file: ManifestFile
  /** URL path, leading slash, e.g. `/assets/app.js`. */
  readonly url: string
  /**
   * Codings to try, best first: the manifest's smallest-first order, with any variant whose size
   * equals an earlier one's left out (servers that derive ETags from mtime+size would give both
   * the same ETag, and the two are equally good anyway).
   */
  readonly order: readonly Encoding[]
}

export interface SiteModel {
  readonly manifest: Manifest
  readonly manifestFilename: string
  /** Every manifest file that has at least one variant. */
  readonly withVariants: readonly FileModel[]
  /** The order most files with variants use; files whose `order` differs get their own rule. */
  readonly defaultOrder: readonly Encoding[]
  /** Content-Type per lower-case extension of files with variants (first file of that extension wins). */
  readonly typeByExtension: ReadonlyMap<string, string>
  /** Files grouped by their Cache-Control value. */
  readonly byCacheControl: ReadonlyMap<string, readonly ManifestFile[]>
  /** Files kept only as variants (`keepOriginals: false`). */
  readonly withoutOriginal: readonly FileModel[]
}

export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1)
  const dot = base.lastIndexOf('.')
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase()
}

export function orderKey(order: readonly Encoding[]): string {
  return order.map((e) => LETTER[e]).join('')
}

function orderOf(file: ManifestFile): Encoding[] {
  const sorted = [...file.variants].sort((a, b) => a.size - b.size)
  const order: Encoding[] = []
  const sizes = new Set<number>()
  for (const variant of sorted) {
    if (sizes.has(variant.size)) continue
    sizes.add(variant.size)
    order.push(variant.encoding)
  }
  return order
}

/** Builds the model. Throws nothing: an empty manifest gives an empty model. */
export function siteModel(manifest: Manifest): SiteModel {
  const withVariants: FileModel[] = []
  const typeByExtension = new Map<string, string>()
  const byCacheControl = new Map<string, ManifestFile[]>()
  const orderCounts = new Map<string, { order: Encoding[]; count: number }>()
  for (const file of manifest.files) {
    const list = byCacheControl.get(file.cacheControl) ?? []
    list.push(file)
    byCacheControl.set(file.cacheControl, list)
    if (file.variants.length === 0) continue
    const order = orderOf(file)
    withVariants.push({ file, url: `/${file.path}`, order })
    const key = orderKey(order)
    const entry = orderCounts.get(key) ?? { order, count: 0 }
    entry.count++
    orderCounts.set(key, entry)
    const extension = extensionOf(file.path)
    if (extension && !typeByExtension.has(extension)) typeByExtension.set(extension, file.contentType)
  }
  // The most common full order; ties go to the codec table's order (br < zstd < gzip).
  let defaultOrder: Encoding[] = [...ALL_ENCODINGS]
  let best = -1
  for (const { order, count } of orderCounts.values()) {
    if (order.length === ALL_ENCODINGS.length && count > best) { best = count; defaultOrder = order }
  }
  return {
    manifest,
    manifestFilename: MANIFEST_FILENAME,
    withVariants,
    defaultOrder,
    typeByExtension,
    byCacheControl,
    withoutOriginal: withVariants.filter((f) => !f.file.originalOnDisk),
  }
}

/** Whether a file's order differs from the default one in a way a shared rule would get wrong. */
export function needsOwnOrder(model: SiteModel, file: FileModel): boolean {
  // A shared rule tries the default order and skips variants that don't exist, so a file
  // whose order is the default order with some codings missing is served right by it.
  const filtered = model.defaultOrder.filter((e) => file.file.variants.some((v) => v.encoding === e))
  return orderKey(filtered) !== orderKey(file.order)
}

/** Escapes a string for use inside a PCRE pattern. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/#\s]/g, (c) => (c === ' ' ? '\\x20' : `\\${c}`))
}

/** The `# generated by preencode — do not edit` line in a format's comment syntax. */
export function generatedHeader(comment: '#' | '//', manifest: Manifest): string {
  return `${comment} generated by preencode — do not edit (from ${manifest.generator}; regenerate with \`preencode config\`)`
}
