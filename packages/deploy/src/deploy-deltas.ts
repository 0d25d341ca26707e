// Delta updates at deploy time (RFC 9842): the versions visitors may still hold are read from
// the target itself, so a fresh CI runner with an empty cache still writes `.dcb`/`.dcz` deltas
// for the changed files. They join the manifest before the plan, so they go up with the
// immutable phase, before the pages that make browsers fetch the new files.

import {
  type DeltaOptions,
  type DeltaReport,
  type Manifest,
  type OptionLabel,
  type ResolvedDeltaOptions,
  resolveDeltasSetting,
  writeDeltas,
} from '@preencode/core'
import { buildOptionsFromManifest, isAssetDictionary, isPageDictionary } from '@preencode/core/internal'
import type { DeployTarget, TargetContext } from './plan/target.js'

/**
 * The delta options of a deploy, or undefined when off. By default deltas follow the build: on
 * when its manifest announces dictionaries (`useAsDictionary`), which the build writes only with
 * delta updates on; the shared page dictionary likewise. `label` names `deltas.<key>` in messages.
 */
export function resolveDeployDeltas(
  value: boolean | DeltaOptions | undefined,
  manifest: Manifest,
  label: OptionLabel,
): ResolvedDeltaOptions | undefined {
  const announced = manifest.files.some((file) => file.useAsDictionary !== undefined)
  const pages = manifest.files.some((file) => isPageDictionary(file.path) && file.useAsDictionary !== undefined)
  const assets = manifest.files.some((file) => isAssetDictionary(file.path) && file.useAsDictionary !== undefined)
  // The target is where the deploy's previous versions come from; the cache history is not used.
  const resolved = resolveDeltasSetting(value, {
    cwd: process.cwd(),
    component: 'deploy',
    label: (key) => label(key ? `deltas.${key}` : 'deltas'),
    onByDefault: announced,
    defaults: { pages, assets },
    overrides: { remember: false },
  })
  return resolved || undefined
}

/** Why a folder cannot take new files: the deltas are then skipped, not the deploy. */
const UNWRITABLE: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exhausted',
}

/**
 * Rewrites the site's deltas against what `target` holds (or `options.previous`, a folder, when
 * given). Returns undefined when the target cannot tell its previous versions. Deltas are
 * written into the site folder: when it cannot take them (read-only, full), one warning, and the
 * site is deployed as built (`report` undefined); what a failed write left is journaled, and the
 * next run removes it.
 */
export async function writeDeployDeltas(
  root: string,
  manifest: Manifest,
  options: ResolvedDeltaOptions,
  target: DeployTarget,
  context: TargetContext,
): Promise<{ manifest: Manifest; report: DeltaReport | undefined } | undefined> {
  const source = options.previous === undefined ? await target.previousVersions?.(context) : undefined
  if (options.previous === undefined && source === undefined) return undefined
  // The build's own options, as recorded in its manifest (its cache, the shared bucket included;
  // levels): the same deltas it would write.
  const { compress } = buildOptionsFromManifest(manifest, process.cwd(), { warn() {} })
  const logger = { warn: (message: string) => context.emit({ type: 'warning', message }) }
  try {
    return await writeDeltas(root, manifest, options, { ...compress, logger, ...(source ? { source } : {}) })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code
    if (code === undefined || !(code in UNWRITABLE)) throw error
    context.emit({
      type: 'warning',
      message: `deltas cannot be written into the site folder ${root}: ${UNWRITABLE[code]} (${code}); the site is deployed as built, without deltas`,
    })
    return { manifest, report: undefined }
  }
}
