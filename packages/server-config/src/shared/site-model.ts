/**
 * What serving a site looks like from its manifest: which URLs have variants, in which order a
 * file's own sizes rank them, and the order the generated configs try them in. The configs do
 * not read this (they depend on options only); the Node middleware's tests and the e2e suite do.
 */
import type { Manifest, ManifestFile } from '@preencode/core'
import type { Encoding } from '../http/negotiate.js'
import { servedCodings } from './policy.js'

export interface FileModel {
  readonly file: ManifestFile
  /** URL path, leading slash, e.g. `/assets/app.js`. */
  readonly url: string
  /** The file's codings, smallest first (the manifest's order). */
  readonly order: readonly Encoding[]
}

export interface SiteModel {
  readonly manifest: Manifest
  /** Every manifest file that has at least one variant. */
  readonly withVariants: readonly FileModel[]
  /**
   * The order the generated configs try the codings in: the codec table's (br, zstd, gzip),
   * restricted to the manifest's formats. nginx and Apache follow a file's own sizes where a
   * `u+x` mark says they differ (core `variantsToWrite`); Caddy and its `precompressed` list
   * always use this order.
   */
  readonly defaultOrder: readonly Encoding[]
}

/** Builds the model. Pure. */
export function siteModel(manifest: Manifest): SiteModel {
  const withVariants = manifest.files
    .filter((file) => file.variants.length > 0)
    .map((file) => ({ file, url: `/${file.path}`, order: file.variants.map((v) => v.encoding) }))
  return { manifest, withVariants, defaultOrder: servedCodings(manifest) }
}
