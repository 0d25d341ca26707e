// What deploy refuses before it writes anything, each in one message that says what to do.
import { stat } from 'node:fs/promises'
import { type OptionLabel, userError } from '@preencode/core'
import type { DeployTarget } from './plan/target.js'

/** The site folder exists and is a folder. */
export async function assertSiteFolder(root: string): Promise<void> {
  const info = await stat(root).catch(() => undefined)
  if (!info)
    throw userError(
      'deploy',
      `The site folder ${root} does not exist. Build the site (and \`preencode compress\` it) first, or pass the folder that holds .preencode-manifest.json.`,
      { code: 'BAD_INPUT' },
    )
  if (!info.isDirectory())
    throw userError(
      'deploy',
      `${root} is not a folder; pass the built site's folder (the one holding .preencode-manifest.json).`,
      { code: 'BAD_INPUT' },
    )
}

/** A first deploy with `delete` would remove files preencode did not write; `label` names the options. */
export function unknownFilesMessage(target: string, keys: readonly string[], label: OptionLabel): string {
  const shown = keys.slice(0, 3).join(', ')
  const more = keys.length > 3 ? ` and ${keys.length - 3} more` : ''
  return `${target} has no deploy state (preencode never deployed there), and ${label('delete')} would remove ${keys.length} file${keys.length === 1 ? '' : 's'} there that the site does not have: ${shown}${more}. Nothing was uploaded or deleted. Pass ${label('deleteUnknown')} to delete them too, or deploy without ${label('delete')}.`
}

/** The `target` option is a target, as `localTarget()`, `rsyncTarget()`, `s3Target()` and `createTarget()` return. */
export function assertDeployTarget(target: DeployTarget | undefined): void {
  if (target && typeof target.uploadPhase === 'function') return
  throw userError(
    'options',
    'deploy: target must be a DeployTarget (localTarget(), rsyncTarget(), s3Target() or createTarget()).',
  )
}
