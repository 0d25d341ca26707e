/**
 * A site folder on disk, served by the specification (`http/spec.ts`) for the Node middleware
 * and the Fetch handler alike: the entry for a path (the manifest's, else `disk.ts`), the file
 * of the chosen representation opened, and the answer computed from what was opened.
 *
 * Everything about the bytes — Content-Length, Range, ETag, Last-Modified and the body — comes
 * from the one file handle opened here, never from the manifest alone, so a rebuild that
 * replaces the file (atomically, by rename) mid-request cannot cut or mix a body: the handle
 * keeps the file it opened. A file the manifest names but the disk no longer has (a rebuild
 * removed it after the manifest was read) makes the manifest be read again; a variant removed
 * before the new manifest is written leaves the original, which is always right.
 *
 * Every file is opened and described through `site-root.ts`: only from inside the site's real
 * folder (a symlink out of it is not a file of the site), and the manifest's paths are checked
 * once, when it is indexed (`manifest.ts`).
 *
 * A path with no file goes through the static-host conventions (`http/conventions.ts`): the
 * directory redirect, then `<path>.html`, the SPA's index, the `404.html` page (status 404),
 * each opened and answered like any file.
 */

import { type Manifest, userError } from '@preencode/core'
import { isSafeRelativePath } from '@preencode/core/internal'
import { etagOf } from '../http/conditional.js'
import {
  type ConventionOptions,
  DEFAULT_CONVENTIONS,
  fallbacksOf,
  type ResolvedConventions,
} from '../http/conventions.js'
import type { RequestLocation } from '../http/request.js'
import { httpDate } from '../http/served-file.js'
import {
  type Answer,
  answer,
  chooseRepresentation,
  directoryRedirect,
  hiddenFile,
  type Representation,
  type RequestFacts,
  type Target,
} from '../http/spec.js'
import { resolveConventions } from '../shared/conventions.js'
import { answerSlot, chosenFor } from './answer-memo.js'
import { diskEntry } from './disk.js'
import type { OpenedFile } from './file-access.js'
import { fileEtag, type OpenedInfo, openedSha256 } from './file-etag.js'
import { isOutOfHandles } from './handles.js'
import { EMIT_WARNING, type Entry, indexSite, manifestOnDisk, type WarningHandler } from './manifest.js'
import { type OpenedSiteFile, type SiteRoot, siteRoot } from './site-root.js'

interface SiteOptions {
  /** The manifest to serve by; default: the one in the folder, re-read when it changes. */
  manifest?: Manifest | undefined
  /** Told, in one line, what the site cannot use as it is (a manifest naming paths out of it, one cut short). */
  onWarning?: WarningHandler | undefined
  /** Clean URLs and the SPA fallback (`http/conventions.ts`); default: clean URLs only. */
  conventions?: ResolvedConventions
  /** Answer a path the site has no file for with its `404.html` (status 404); default: no (the app's). */
  notFoundPage?: boolean
  /** The index file (the SPA fallback's page); default `index.html`. */
  index?: string
}

/** The default index file: served for a URL ending in `/`. */
const DEFAULT_INDEX = 'index.html'

/** The `index` option of the middleware and the handler, checked once: a file name inside the site. */
function resolveIndex(value: unknown): string {
  if (value === undefined) return DEFAULT_INDEX
  if (typeof value !== 'string' || !isSafeRelativePath(value) || value.endsWith('/'))
    throw userError(
      'server-config',
      `\`index\` is ${JSON.stringify(value)}; give a file name relative to the folder, e.g. 'index.html'.`,
    )
  return value
}

/** The `fallthrough` option of the middleware and the handler, checked once. */
function resolveFallthrough(value: unknown): boolean {
  if (value === undefined) return true
  if (typeof value !== 'boolean')
    throw userError('server-config', `\`fallthrough\` is ${JSON.stringify(value)}; accepted: true, false.`)
  return value
}

/** What to send: the answer, and the stored file open when it has a body (the caller closes it). */
export interface Resolved {
  answer: Answer
  handle: OpenedFile | undefined
}

export interface SiteOnDisk {
  /**
   * The answer for a request `targetOf` sent to the site: the file (or 404 for a hidden one the
   * site has, 301 for a directory without its slash), else the conventions' fallbacks (clean
   * URL, SPA, 404 page); undefined when none applies.
   */
  answerFor(
    target: Exclude<Target, { kind: 'pass' }>,
    facts: RequestFacts,
    location: RequestLocation,
  ): Promise<Resolved | undefined>
}

/** What a client that takes no coding asks: the original, whatever the request's Accept-Encoding. */
const identityOf = (facts: RequestFacts): RequestFacts => ({
  method: facts.method,
  headers: { ...facts.headers, 'accept-encoding': 'identity', 'available-dictionary': undefined },
})

/**
 * `createPreencodeMiddleware()`'s options, and `createPreencodeHandler()`'s (`PreencodeHandlerOptions`
 * is this type): the one set of options of the site on disk, checked once by `servedSite`.
 */
export interface PreencodeMiddlewareOptions extends ConventionOptions {
  /**
   * The manifest to serve by. When not given, `<dir>/.preencode-manifest.json` is read on the
   * first request and read again whenever it changes on disk (a rebuild or a redeploy in place).
   */
  manifest?: Manifest
  /**
   * File served for a URL ending in `/`.
   * @default 'index.html'
   */
  index?: string
  /**
   * Told, in one line, what the site cannot use as it is: a manifest that names paths out of
   * the site, or one cut short (the last good one is kept).
   * @default process.emitWarning
   */
  onWarning?: (message: string) => void
  /**
   * What a path the site has no file for (after clean URLs and the SPA fallback) gets: `true`
   * passes it on (the middleware calls `next()`, the Fetch handler resolves `undefined`), so the
   * app behind can answer it, as express.static's `fallthrough`; `false` answers it here with
   * the site's `404.html` and status 404, as a static host does (`preencode serve`). A dotfile
   * the site has is answered 404 either way.
   * @default true
   */
  fallthrough?: boolean
}

/** The middleware's or the handler's options checked once, and the site on disk they describe. */
export function servedSite(dir: string, options: PreencodeMiddlewareOptions): { site: SiteOnDisk; index: string } {
  const index = resolveIndex(options.index)
  const site = siteOnDisk(dir, {
    manifest: options.manifest,
    conventions: resolveConventions(options),
    notFoundPage: resolveFallthrough(options.fallthrough) === false,
    index,
    onWarning: options.onWarning,
  })
  return { site, index }
}

function siteOnDisk(dir: string, options: SiteOptions = {}): SiteOnDisk {
  const warn = options.onWarning ?? EMIT_WARNING
  const root = siteRoot(dir)
  const given = options.manifest ? indexSite(options.manifest, warn) : undefined
  const load = given ? async () => given : manifestOnDisk(dir, warn)
  const entryOf = async (path: string, facts: RequestFacts, reload = false): Promise<Entry | undefined> => {
    const site = await load(reload)
    return site.entries?.get(path) ?? diskEntry(root, path, facts.headers['available-dictionary'], site.disk)
  }
  const attempt = async (path: string, facts: RequestFacts, reload: boolean, status: 200 | 404) => {
    const entry = await entryOf(path, facts, reload)
    return entry ? openAnswer(root, entry, facts, status) : undefined
  }
  const resolve = async (path: string, facts: RequestFacts, status: 200 | 404 = 200): Promise<Resolved | undefined> => {
    let found = await attempt(path, facts, false, status)
    if (found === 'missing') found = await attempt(path, facts, !given, status)
    if (found === 'missing') found = await attempt(path, identityOf(facts), false, status)
    return found === 'missing' ? undefined : found
  }
  const has = async (path: string, facts: RequestFacts): Promise<boolean> => (await entryOf(path, facts)) !== undefined
  const conventions = options.conventions ?? DEFAULT_CONVENTIONS
  const fallback = async (target: Exclude<Target, { kind: 'pass' }>, facts: RequestFacts) => {
    const missing = {
      path: target.path,
      asked: target.kind === 'file' ? target.asked : target.path,
      hidden: target.kind === 'hidden',
    }
    for (const { path, status } of fallbacksOf(missing, conventions, options.index ?? DEFAULT_INDEX, notFoundPage)) {
      const resolved = await resolve(path, facts, status)
      if (resolved) return resolved
    }
    return undefined
  }
  const notFoundPage = options.notFoundPage === true
  return {
    async answerFor(target, facts, location) {
      if (target.kind === 'hidden') {
        if (!(await has(target.path, facts))) return notFoundPage ? fallback(target, facts) : undefined
        return (await fallback(target, facts)) ?? { answer: hiddenFile(), handle: undefined }
      }
      const resolved = await resolve(target.path, facts)
      if (resolved) return resolved
      if (target.directoryIndex !== undefined && (await has(target.directoryIndex, facts)))
        return { answer: directoryRedirect(location.pathname, location.search), handle: undefined }
      return fallback(target, facts)
    },
  }
}

/** Opens the chosen representation and answers from what was opened; 'missing' when the file is gone. */
async function openAnswer(
  root: SiteRoot,
  entry: Entry,
  facts: RequestFacts,
  status: 200 | 404,
): Promise<Resolved | 'missing' | undefined> {
  // An entry of the manifest lives as long as the manifest read: what it answers is remembered (`answer-memo.ts`).
  const remembered = entry.onDisk !== true
  const chosen = remembered ? chosenFor(facts, entry.served) : chooseRepresentation(facts, entry.served)
  if (!chosen) return undefined
  let opened: OpenedSiteFile | undefined
  try {
    opened = await root.open(chosen.path)
  } catch (error) {
    // Out of file handles is not "no such file": the caller answers 503 (handles.ts).
    if (isOutOfHandles(error)) throw error
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : undefined
  }
  // A link out of the site: not a file of the site, whatever the manifest says.
  if (!opened) return undefined
  const { file: handle, info } = opened
  let keep = false
  try {
    if (!info.isFile()) return undefined
    const slot = remembered ? answerSlot(facts, chosen, info, status) : undefined
    let result = slot?.get()
    if (!result) {
      let opened: Representation
      try {
        opened = await asOpened(entry, chosen, info, handle)
      } catch (error) {
        // Replaced between its description and its read (Bun, `file-access.ts`): as if gone, asked again.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing'
        throw error
      }
      const file = { ...entry.served, lastModified: httpDate(info.mtimeMs) }
      result = answer(facts, file, opened, Date.now(), status)
      if (slot) result = slot.set(result)
    }
    keep = result.body !== undefined
    return { answer: result, handle: keep ? handle : undefined }
  } finally {
    if (!keep) await handle.close().catch(() => {})
  }
}

/**
 * The representation as opened. The file is the one the entry describes when size and mtime
 * agree (variants carry their original's mtime; within a millisecond, as tools that copy times
 * round) and it has not changed since the manifest was written, or its bytes hash to what the
 * manifest records (`file-etag.ts`); otherwise the ETag comes from what was opened, so a cache
 * never pairs a tag with other bytes (issue 36.2), and a decoded length is no longer known.
 */
async function asOpened(
  entry: Entry,
  chosen: Representation,
  info: OpenedInfo,
  handle: OpenedFile,
): Promise<Representation> {
  const stored = chosen.decode ? entry.served.variants.find((v) => v.path === chosen.path) : chosen
  const asRecorded = !entry.onDisk && info.size === stored?.size && Math.abs(info.mtimeMs - entry.mtimeMs) <= 1
  if (asRecorded) {
    if (entry.describedBefore !== undefined && info.ctimeMs < entry.describedBefore) return chosen
    if (etagOf(await openedSha256(handle, info)) === stored.etag) return chosen
  }
  return { ...chosen, etag: fileEtag(info, chosen.encoding), size: chosen.decode ? undefined : info.size }
}
