import { realpath, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { CODECS, FALLBACK_FORMAT } from '../codecs/table.js'
import { sha256File } from '../fs/open-files.js'
import { withSiteLock } from '../fs/site-lock.js'
import { cleanTempFiles } from '../fs/write.js'
import { MANIFEST_FILENAME, type Manifest, type ManifestFile, readManifest } from '../manifest/manifest.js'
import { refuseManifestOutsideSite } from '../manifest/manifest-paths.js'
import { buildOptionsFromManifest } from '../manifest/settings.js'
import { runPool } from '../pool/run-pool.js'
import type { CompressHooks, CompressLogger } from '../run/compress-directory.js'
import { scanDirectory } from '../run/scan.js'
import { createBuildRunner } from './build-runner.js'

/** How the disk differs from a manifest; every list holds POSIX paths of originals. */
export interface ManifestDrift {
  /** Originals whose bytes differ from the manifest's sha256 (size differs, or mtime and hash). */
  changed: string[]
  /** Files on disk the manifest does not list (a post-build step wrote them). */
  added: string[]
  /** Originals the manifest lists that are gone. */
  removed: string[]
  /** Originals whose recorded variants are missing or not the recorded size. */
  damaged: string[]
  /**
   * Variants and deltas a killed run wrote that its journal names but no manifest does (a deploy
   * killed while writing deltas): preencode's, never taken for originals; the recompression
   * rewrites or removes them.
   */
  leftovers: string[]
  /**
   * Temporary files of a killed run (`.app.js.br.tmp-<pid>-<hex>`, inside `.dict/` folders too):
   * not drift of the manifest, but removed before the manifest is used (a deploy killed while it
   * wrote deltas left them beside the files it had renamed into place).
   */
  tempFiles: string[]
}

/** What `reconcileManifest` found and did. */
export interface ReconcileResult {
  /** The manifest as it now describes the disk. */
  manifest: Manifest
  drift: ManifestDrift
  /** True when the drift was non-empty and the directory was compressed again. */
  recompressed: boolean
}

/** Stats (and hashes) in flight while comparing: hashing holds a file handle. */
const COMPARE_CONCURRENCY = 16

/**
 * Compares `<dir>`'s manifest with the disk and, if anything drifted, recompresses the
 * directory with the settings the manifest records (the cache makes unchanged files free)
 * before returning the new manifest. Deploy, `config`, `report` and `verify` call this first, so
 * no command plans from a manifest that no longer describes the files, nor from one that names a
 * path out of the site (`refuseManifestOutsideSite`: refused before anything is read).
 *
 * Change detection: size and mtime first (a stat, no read); where either differs from the
 * manifest, the file is hashed, and only a different sha256 counts as changed (`touch` or a
 * copy that kept the bytes is not a change). Variants count too: a recorded variant that is
 * gone or has another size makes its original damaged. Added and removed originals come from
 * one walk of the directory, ownership rules as in `compress`.
 */
export async function reconcileManifest(dir: string, hooks: CompressHooks = {}): Promise<ReconcileResult> {
  const root = await realpath(resolve(dir)).catch(() => resolve(dir))
  const manifest = await readManifest(root)
  // Before the drift check stats or hashes a path the manifest names.
  refuseManifestOutsideSite(manifest, join(root, MANIFEST_FILENAME), 'core')
  const drift = await manifestDrift(root, manifest)
  const total =
    drift.changed.length + drift.added.length + drift.removed.length + drift.damaged.length + drift.leftovers.length
  const logger: CompressLogger = hooks.logger ?? { info() {}, warn() {} }
  if (total === 0) {
    // A recompression would remove them too; without one, they go here, under the site's lock.
    // Best effort: a read-only site, or one another run holds (and cleans), keeps them for now.
    if (drift.tempFiles.length > 0) {
      const removed = await withSiteLock(
        root,
        (message) => logger.info(message),
        () => cleanTempFiles(root, drift.tempFiles),
      ).catch(() => 0)
      if (removed > 0) logger.info(`removed ${removed} temp files left by an interrupted run`)
    }
    return { manifest, drift, recompressed: false }
  }
  logger.info(
    `the manifest of ${root} is out of date with the files (${describeDrift(drift)}); compressing again first`,
  )
  // The build's own pipeline with the settings it recorded: the deltas it made are written
  // again the same way, so an edit after the build keeps `Use-As-Dictionary` and the
  // `.dcb`/`.dcz` files exactly as the build would have written them.
  const options = buildOptionsFromManifest(manifest, root, logger)
  // The caller's logger shows the notes; no report is printed.
  const runner = createBuildRunner({ options: { ...options, report: false }, root, force: true })
  await runner.run({
    dirs: [root],
    watch: false,
    logger: { ...logger, error: (message) => logger.warn(message) },
    notes: true,
    color: false,
    ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
  })
  return { manifest: await readManifest(root), drift, recompressed: true }
}

/** `2 changed, 1 added (late/extra.html, …)`: the counts, and a few names. */
function describeDrift(drift: ManifestDrift): string {
  const parts: string[] = []
  for (const key of ['changed', 'added', 'removed', 'damaged', 'leftovers'] as const) {
    const paths = drift[key]
    if (paths.length === 0) continue
    parts.push(`${paths.length} ${key}: ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''}`)
  }
  return parts.join('; ')
}

/** How the disk differs from `manifest`; reads only files whose size or mtime differ. */
export async function manifestDrift(root: string, manifest: Manifest): Promise<ManifestDrift> {
  const skipDirs = manifest.settings?.cache ? [manifest.settings.cache] : []
  const scan = await scanDirectory(root, { previous: manifest, skipDirs })
  const onDisk = new Set(scan.originals)
  const variantsOnDisk = new Set(scan.variants)
  const listed = new Set<string>()
  const drift: ManifestDrift = {
    changed: [],
    added: [],
    removed: [],
    damaged: [],
    leftovers: scan.journaled,
    tempFiles: scan.tempFiles,
  }
  const present: ManifestFile[] = []
  for (const file of manifest.files) {
    listed.add(file.path)
    const gzip = `${file.path}${CODECS[FALLBACK_FORMAT].extension}`
    if (file.originalOnDisk ? !onDisk.has(file.path) : !variantsOnDisk.has(gzip)) drift.removed.push(file.path)
    else present.push(file)
  }
  for (const path of scan.originals) if (!listed.has(path)) drift.added.push(path)

  await runPool(present, COMPARE_CONCURRENCY, async (file) => {
    const verdict = await compareFile(root, file, variantsOnDisk)
    if (verdict) drift[verdict].push(file.path)
  })
  drift.changed.sort()
  drift.damaged.sort()
  return drift
}

async function compareFile(
  root: string,
  file: ManifestFile,
  variantsOnDisk: ReadonlySet<string>,
): Promise<'changed' | 'damaged' | undefined> {
  const variantSizes = await Promise.all(
    file.variants.map(async (variant) =>
      variantsOnDisk.has(variant.path)
        ? (await stat(join(root, variant.path)).catch(() => undefined))?.size
        : undefined,
    ),
  )
  const path = join(root, file.path)
  const original = file.originalOnDisk ? await stat(path).catch(() => undefined) : undefined
  const verdict = statVerdict(file, variantSizes, original)
  if (verdict !== 'hash') return verdict
  // A file that goes away while it is hashed (a tool still writing) has changed.
  return (await sha256File(path).catch(() => undefined)) === file.sha256 ? undefined : 'changed'
}

/** What a stat says of an original: its size and mtime. */
export interface StatFacts {
  size: number
  mtimeMs: number
}

/**
 * THE rule of "changed since encoded", for `reconcileManifest` and the synchronous check a build
 * process makes as it exits (`folder-at-exit.ts`): a recorded variant that is gone or has another
 * size makes its original `damaged`; an original that is gone or has another size is `changed`;
 * the same size and mtime is unchanged; otherwise only its sha256 can tell (`hash`: the caller
 * hashes and compares with `file.sha256`). `variantSizes`: each recorded variant's size on disk
 * (undefined when missing), in `file.variants` order; `original`: the original's stat (undefined
 * when missing; not read with `keepOriginals: false`, where the .gz stands for it).
 */
export function statVerdict(
  file: ManifestFile,
  variantSizes: readonly (number | undefined)[],
  original: StatFacts | undefined,
): 'changed' | 'damaged' | 'hash' | undefined {
  if (file.variants.some((variant, index) => variantSizes[index] !== variant.size)) return 'damaged'
  if (!file.originalOnDisk) return undefined
  if (!original || original.size !== file.size) return 'changed'
  return Math.abs(original.mtimeMs - file.mtimeMs) < 1 ? undefined : 'hash'
}
