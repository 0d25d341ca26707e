// The manifest a deploy leaves at a folder target's root (issue 36.3): what `preencode serve`,
// `createPreencodeHandler` and the middleware read to serve the deployed folder as they serve a
// build, with content-hash ETags and only the variants it lists beside their file. Under the
// manifest's own name (`.preencode-manifest.json`), a dotfile like the deploy state beside it:
// every generated config refuses dotfiles (server-config `http/dotfiles.ts`). It describes what
// the deploy put there, and names nothing of this machine: files left out (dotfiles) are not in
// it, nor the cache folder or shared cache of the build.
import type { Manifest } from '@preencode/core'
import type { DeployPlan } from './plan.js'

/** The site's manifest as deployed: without the files the plan left on this machine. */
export function deployedManifest(manifest: Manifest, plan: Pick<DeployPlan, 'leftOut'>): Manifest {
  const leftOut = new Set(plan.leftOut)
  const deployed: Manifest = { ...manifest, files: manifest.files.filter((file) => !leftOut.has(file.path)) }
  if (manifest.settings) {
    const { sharedCache: _shared, ...settings } = manifest.settings
    deployed.settings = { ...settings, cache: false }
  }
  return deployed
}
