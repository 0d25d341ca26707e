import { type CachePolicyOptions, looksContentHashed } from '../http/cache-policy.js'
import type { Manifest, ManifestSettings, RecordedDeltas, RecordedPattern } from './manifest.js'

export type { ManifestSettings, RecordedDeltas }

import { dictionaryNodeProblem, supportsDictionaryCompression } from '../codecs/dictionary.js'
import { levelOption } from '../codecs/encode.js'
import type { Format } from '../codecs/table.js'
import type { ResolvedBuildOptions } from '../options/build-options.js'
import {
  type CompressOptions,
  type FilePattern,
  type ResolvedCompressOptions,
  resolveCompressOptions,
} from '../options/compress-options.js'
import { type ResolvedDeltaOptions, resolveDeltaOptions } from '../options/delta-options.js'
import { KEY_LABEL, within } from '../options/option-label.js'
import { type SharedCacheLocation, withoutUserInfo } from '../options/shared-cache-location.js'

/** What to record for delta options. */
export function recordDeltas(options: ResolvedDeltaOptions): RecordedDeltas {
  const { remember: _r, previous, ...rest } = options
  return { ...rest, encodings: [...rest.encodings], ...(previous === undefined ? {} : { previous }) }
}

/**
 * The delta options that reproduce the recorded ones, without adding to the build history
 * (the build that wrote the manifest already did); undefined when the run made none.
 */
function deltaOptionsFromManifest(manifest: Manifest): ResolvedDeltaOptions | undefined {
  const recorded = manifest.settings?.deltas
  if (!recorded || typeof recorded !== 'object') return undefined
  try {
    // Checked like options: a manifest edited by hand must not crash a deploy.
    const { versions, encodings, maxDictionaryBytes, pages, pageDictionaryBytes, assets, previous } = recorded
    return resolveDeltaOptions(
      {
        versions,
        encodings,
        maxDictionaryBytes,
        pages,
        pageDictionaryBytes,
        ...(assets === undefined ? {} : { assets }),
        remember: false,
        ...(previous ? { previous } : {}),
      },
      '/',
      within('settings.deltas', KEY_LABEL),
    )
  } catch {
    return undefined
  }
}

const recordPattern = (p: FilePattern): RecordedPattern =>
  typeof p === 'string' ? p : { regexp: p.source, flags: p.flags }
const patternOf = (p: RecordedPattern): FilePattern => (typeof p === 'string' ? p : new RegExp(p.regexp, p.flags))

/** What to record for `options`. */
export function recordSettings(options: ResolvedCompressOptions): ManifestSettings {
  return {
    // `'max'` as users write it: a level beyond a codec's range (gzip's) is not one they can give.
    levels: Object.fromEntries(
      Object.entries(options.levels).map(([format, level]) => [format, levelOption(format as Format, level)]),
    ) as ManifestSettings['levels'],
    threshold: options.threshold,
    minSaving: options.minSaving,
    include: options.include.map(recordPattern),
    exclude: options.exclude.map(recordPattern),
    keepOriginals: options.keepOriginals,
    cache: options.cacheDir,
    cacheMaxBytes: options.cacheMaxBytes,
    ...(options.sharedCache ? { sharedCache: recordSharedCache(options.sharedCache) } : {}),
    cacheControl: { ...options.cachePolicy.headers },
    immutable: options.cachePolicy.immutableRule,
  }
}

function recordSharedCache(location: SharedCacheLocation): NonNullable<ManifestSettings['sharedCache']> {
  return {
    url: location.url,
    ...(location.endpoint === undefined ? {} : { endpoint: withoutUserInfo(location.endpoint) }),
  }
}

/**
 * The compress options that reproduce the run that wrote `manifest`. A manifest without
 * settings (written before they were recorded) gives its formats and the defaults.
 */
export function optionsFromManifest(manifest: Manifest): CompressOptions {
  const settings = manifest.settings
  if (!settings) return { formats: [...manifest.formats] }
  const known = new Map(manifest.files.map((f) => [f.path, f.cacheClass]))
  const regexp = /^\/(.*)\/([a-z]*)$/s.exec(settings.immutable)
  const immutable: CachePolicyOptions['immutable'] = regexp
    ? new RegExp(regexp[1]!, regexp[2])
    : settings.immutable === 'function'
      ? (path: string) => (known.has(path) ? known.get(path) === 'immutable' : looksContentHashed(path))
      : undefined
  return {
    formats: [...manifest.formats],
    levels: { ...settings.levels },
    threshold: settings.threshold,
    minSaving: settings.minSaving,
    include: settings.include.map(patternOf),
    exclude: settings.exclude.map(patternOf),
    keepOriginals: settings.keepOriginals,
    // With a shared cache, the local directory is the default one, as when the build ran.
    cache: settings.sharedCache?.url ?? settings.cache,
    ...(settings.sharedCache?.endpoint === undefined ? {} : { cacheEndpoint: settings.sharedCache.endpoint }),
    cacheMaxBytes: settings.cacheMaxBytes,
    cachePolicy: {
      ...(immutable === undefined ? {} : { immutable }),
      immutableCacheControl: settings.cacheControl.immutable,
      htmlCacheControl: settings.cacheControl.html,
      defaultCacheControl: settings.cacheControl.default,
    },
  }
}

/**
 * The build options that reproduce the run that wrote `manifest`: its compress options and
 * the delta updates it made (without adding to the build history). On a Node that cannot
 * write deltas, `logger` hears that the recompressed site has none.
 */
export function buildOptionsFromManifest(
  manifest: Manifest,
  root: string,
  logger: { warn(message: string): void },
): ResolvedBuildOptions {
  const compress = resolveCompressOptions(optionsFromManifest(manifest), root)
  let deltas = deltaOptionsFromManifest(manifest)
  if (deltas && !supportsDictionaryCompression()) {
    logger.warn(
      `${dictionaryNodeProblem(`the build of ${root} made delta updates, which`, 'the recompressed site has none')}`,
    )
    deltas = undefined
  }
  return { report: false, compress, deltas: deltas ?? false, force: false }
}
