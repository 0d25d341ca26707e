// Which stale variants and deltas a deploy deletes whatever `delete` and `keep` say (those are
// about originals). A variant (`<file>.br|.gz|.zst`) or a delta (`<file>.dict/<id>.<ext>.dcb|dcz`)
// is an encoding of one version of its file; servers pick it because it exists (nginx
// `gzip_static`/`try_files`, Apache's `RewriteCond -f`, Caddy's `precompressed`, the middleware,
// a Worker). One the new site does not list beside its file may be another version's: issue 36.1
// (a page that fell under the threshold kept the last release's `.br`, and nginx sent the old
// page) and issue 30.1 (a delta whose file changed). The rule, for both: on a target, a variant
// or delta is there only while the site lists it beside its file (and an original only while
// the site keeps it: with `keepOriginals: false`, the `.gz` stands for it).
import { formatOfVariantPath, type Manifest, type ManifestFile } from '@preencode/core'
import { originalOfDeltaPath } from '@preencode/core/internal'

/**
 * The file of the site `key` is an encoding of: a delta's file, or the original beside a key
 * with a suffix of core's codec table (`index.html.br`) when the site has that original. Only
 * then is the key recognisably a variant: a real `release.tar.gz` download beside no
 * `release.tar` is a file of its own (and while the site lists it, it is never stale).
 */
function encodedOriginal(key: string, siteFiles: ReadonlyMap<string, ManifestFile>): string | undefined {
  const delta = originalOfDeltaPath(key)
  if (delta !== undefined) return delta
  const codec = formatOfVariantPath(key)
  if (codec === undefined) return undefined
  const original = key.slice(0, -codec.extension.length)
  return siteFiles.has(original) ? original : undefined
}

/** The site's files by path, for {@link encodedOriginal} and {@link outdatedEncodings}. */
export function siteFilesOf(manifest: Manifest): Map<string, ManifestFile> {
  return new Map(manifest.files.map((file) => [file.path, file]))
}

/**
 * Whether a stale key is preencode's to delete whatever the target's history: a variant or delta
 * ({@link encodedOriginal}), or an original the site keeps only as variants (`keepOriginals:
 * false`: its `.gz` stands for it, and a copy left there would be served as it).
 */
export function isSiteEncoding(key: string, siteFiles: ReadonlyMap<string, ManifestFile>): boolean {
  return siteFiles.get(key)?.originalOnDisk === false || encodedOriginal(key, siteFiles) !== undefined
}

/**
 * The stale keys (not in the new site) deleted after the new files are live, whatever `delete`
 * and `keep` say, because they may not be the file the site has now:
 * - every unlisted variant or delta of a file the new site has (`siteFiles`): its file is served
 *   from what the site lists (the original, or another variant), so no visitor needs it, and it
 *   may encode another version;
 * - an original the site keeps only as variants (`keepOriginals: false`): servers would send it;
 * - a delta of a file the site no longer has, unless the live deploy named it (`liveKeys`, the
 *   newest deploy record): then it is that deploy's delta of the file, which stays for the grace
 *   period like any stale key, and goes with it. A variant of a removed file is not recognisably
 *   one (see {@link encodedOriginal}) and follows its file.
 */
export function outdatedEncodings(
  stale: readonly string[],
  siteFiles: ReadonlyMap<string, ManifestFile>,
  liveKeys: readonly string[] | undefined,
): Set<string> {
  const live = new Set(liveKeys ?? [])
  const outdated = new Set<string>()
  for (const key of stale) {
    if (siteFiles.get(key)?.originalOnDisk === false) {
      outdated.add(key)
      continue
    }
    const original = encodedOriginal(key, siteFiles)
    if (original !== undefined && (siteFiles.has(original) || !live.has(key))) outdated.add(key)
  }
  return outdated
}
