// The manifest a deploy leaves at a folder target's root (issue 36.3): what `preencode serve`,
// `createPreencodeHandler` and the middleware read to serve the deployed folder as they serve a
// build, with content-hash ETags and only the variants it lists beside their file. Under the
// manifest's own name (`.preencode-manifest.json`), a dotfile like the deploy state beside it:
// every generated config refuses dotfiles (server-config `http/dotfiles.ts`). It describes what
// the deploy put there, and names nothing of this machine: files left out (dotfiles) are not in
// it, nor the cache folder or shared cache of the build.
import type { Manifest, ManifestFile } from '@preencode/core'
import type { DeployPlan, RemoteObject } from './plan.js'

/**
 * The site's manifest as deployed: without the files the plan left on this machine, and with
 * each file's mtime as the target holds it (a changed file may have been moved past the
 * target's, `retime.ts`; an unchanged one keeps what an earlier deploy gave it), so the handler
 * knows the files it describes.
 */
export function deployedManifest(
  manifest: Manifest,
  plan: Pick<DeployPlan, 'leftOut' | 'phases'>,
  remote: ReadonlyMap<string, RemoteObject>,
): Manifest {
  const leftOut = new Set(plan.leftOut)
  const written = new Map(plan.phases.flatMap((p) => p.uploads.map((u) => [u.originalPath, u.mtimeMs] as const)))
  const asHeld = (file: ManifestFile): ManifestFile => {
    const key = file.originalOnDisk ? file.path : file.variants[0]?.path
    const mtimeMs = written.get(file.path) ?? (key === undefined ? undefined : remote.get(key)?.mtimeMs)
    return mtimeMs === undefined || mtimeMs === file.mtimeMs ? file : { ...file, mtimeMs }
  }
  const files = manifest.files.filter((file) => !leftOut.has(file.path)).map(asHeld)
  const deployed: Manifest = { ...manifest, files }
  if (manifest.settings) {
    const { sharedCache: _shared, ...settings } = manifest.settings
    deployed.settings = { ...settings, cache: false }
  }
  return deployed
}
