/**
 * Cloudflare Workers' limits that a generated site must fit, checked at `config` time so a deploy
 * never fails half-way (https://developers.cloudflare.com/workers/platform/limits/, read 2026-11):
 * the Worker's size after compression (3 MB on Workers Free, 10 MB on Workers Paid), static asset
 * files per Worker version (20,000 / 100,000) and the size of one asset file (25 MiB, both plans).
 * Wrangler checks the same two asset limits itself, but only while uploading.
 */
import { gzipSync } from 'node:zlib'
import { type Manifest, userError } from '@preencode/core'

/** A Cloudflare Workers plan: which limits `cloudflareWorkerFiles()` checks. */
export type WorkersPlan = 'free' | 'paid'

/** Every Workers plan, for the `plan` option's check and the CLI's `--plan`. */
export const WORKERS_PLANS: readonly WorkersPlan[] = ['free', 'paid']

/** The Worker (script + modules, here mostly the site data) after gzip, in bytes; the docs say MB. */
export const WORKER_MAX_COMPRESSED_BYTES: Readonly<Record<WorkersPlan, number>> = { free: 3_000_000, paid: 10_000_000 }
/** Static asset files per Worker version. */
export const WORKER_MAX_ASSET_FILES: Readonly<Record<WorkersPlan, number>> = { free: 20_000, paid: 100_000 }
/** One static asset file. */
export const WORKER_MAX_ASSET_BYTES = 25 * 1024 * 1024

/** Every file the deploy uploads as an asset, with its size: originals on disk, variants, deltas. */
function uploadedAssets(manifest: Manifest): { path: string; size: number }[] {
  const assets: { path: string; size: number }[] = []
  for (const file of manifest.files) {
    if (file.originalOnDisk) assets.push({ path: file.path, size: file.size })
    for (const variant of file.variants) assets.push({ path: variant.path, size: variant.size })
    for (const delta of file.deltas ?? []) assets.push({ path: delta.path, size: delta.size })
  }
  return assets
}

/** Throws naming the file and the limit when the site does not fit the plan. */
export function checkWorkerLimits(manifest: Manifest, modules: readonly string[], plan: WorkersPlan): void {
  const assets = uploadedAssets(manifest)
  const tooBig = assets.find((a) => a.size > WORKER_MAX_ASSET_BYTES)
  if (tooBig)
    throw userError(
      'server-config',
      `cloudflare: ${tooBig.path} is ${tooBig.size} bytes; a Workers static asset holds at most 25 MiB (${WORKER_MAX_ASSET_BYTES} bytes). Split the file or serve it from R2.`,
    )
  const maxFiles = WORKER_MAX_ASSET_FILES[plan]
  if (assets.length > maxFiles)
    throw userError(
      'server-config',
      `cloudflare: the site uploads ${assets.length} asset files (originals, variants and deltas), above the ${maxFiles} of a Worker version on Workers ${plan === 'free' ? 'Free' : 'Paid'}.${plan === 'free' ? ' Use `plan: "paid"` (--plan paid) on Workers Paid,' : ''} Write fewer formats (\`formats\`) or fewer deltas.`,
    )
  const compressed = gzipSync(Buffer.from(modules.join('\n'))).byteLength
  const maxBytes = WORKER_MAX_COMPRESSED_BYTES[plan]
  if (compressed > maxBytes)
    throw userError(
      'server-config',
      `cloudflare: the Worker with its site data (preencode-site.js, ${manifest.files.length} files) is ${compressed} bytes compressed, above the ${maxBytes} of Workers ${plan === 'free' ? 'Free' : 'Paid'}.${plan === 'free' ? ' Use `plan: "paid"` (--plan paid) on Workers Paid.' : ''}`,
    )
}
