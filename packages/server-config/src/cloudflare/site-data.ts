/**
 * The data file the Cloudflare Worker imports (`preencode-site.js`): for every file of the
 * manifest, what the Worker needs to answer without asking anyone — its Content-Type and
 * Cache-Control, the representations that exist (the original when on disk, each variant
 * smallest first, each delta by dictionary) with their sizes and ETags, Last-Modified and
 * `Use-As-Dictionary`. Generated from the manifest at `config` time and bundled into the Worker
 * by wrangler, so no request costs a round trip to find out which variants exist.
 */
import type { Manifest } from '@preencode/core'
import type { ResolvedConventions } from '../http/conventions.js'
import { type ServedFile, servedFileOf } from '../http/served-file.js'

/** Version of the data format; the runtime refuses another. */
export const WORKER_SITE_VERSION = 1

/** A file as the serving specification reads it (`http/served-file.ts`). */
export type WorkerFile = ServedFile

export interface WorkerSite {
  version: typeof WORKER_SITE_VERSION
  generator: string
  /** File served for a URL ending in `/`. */
  index: string
  /** Paths the Worker answers 404 for even if asked (the manifest, deploy state). */
  hidden: string[]
  /** Files by path relative to the root, no leading slash. */
  files: Record<string, WorkerFile>
  /** The static-host conventions (`http/conventions.ts`); absent in older data: clean URLs and the 404 page. */
  conventions?: WorkerConventions
}

/** The conventions the Worker follows: clean URLs, the SPA fallback, the site's 404.html. */
export interface WorkerConventions extends ResolvedConventions {
  notFoundPage: boolean
}

/** Builds the data from a manifest. Pure. */
export function workerSiteData(
  manifest: Manifest,
  options: { index: string; hidden: string[]; conventions?: WorkerConventions },
): WorkerSite {
  const files: Record<string, WorkerFile> = {}
  for (const file of manifest.files) files[file.path] = servedFileOf(file)
  return {
    version: WORKER_SITE_VERSION,
    generator: manifest.generator,
    index: options.index,
    hidden: options.hidden,
    files,
    ...(options.conventions ? { conventions: options.conventions } : {}),
  }
}
