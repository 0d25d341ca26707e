// `preencode deploy`'s settings: the flags (argv as citty parsed it) laid over the config file's
// `deploy` section, and resolved once by @preencode/deploy's `resolveDeploySettings`, which owns
// every setting's type, unit and limits. This file only turns flags into settings and says how
// each one is named: the flag when the user wrote a flag, the file's key otherwise.
import type { OptionLabel } from '@preencode/core'
import { type DeployOptions, type DeploySettings, resolveDeploySettings } from '@preencode/deploy'
import { isRecord, type LoadedConfig, settingLabel } from './config-file.js'
import { deltaFlagLabel } from './deltas.js'
import { numberFlag } from './flags.js'

/** What the deploy command's flags parse to (citty's view of them). */
export interface DeployFlags {
  'key-value-store'?: string | undefined
  deltas?: boolean | undefined
  'delta-versions'?: string | undefined
  dir?: string | undefined
  to?: string | undefined
  'dry-run'?: boolean | undefined
  concurrency?: string | undefined
  delete?: boolean | undefined
  keep?: string | undefined
  endpoint?: string | undefined
  region?: string | undefined
  release?: boolean | undefined
  timeout?: string | undefined
  'delete-unknown'?: boolean | undefined
  'include-dotfiles'?: boolean | undefined
}

/** The settings and how to name each in messages; the flags win over the file. */
export function resolveDeployFlags(
  flags: DeployFlags,
  loaded: LoadedConfig | undefined,
): { settings: DeploySettings; label: OptionLabel } {
  const section = loaded?.config.deploy
  const fromFile = isRecord(section) ? (section as DeploySettings) : {}
  const fromFlags = settingsOfFlags(flags, flags.release ?? fromFile.release === true)
  const label = deployLabel(fromFlags, fromFile, loaded?.path)
  // A section that is not an object is passed on as it is, for the resolver to name it.
  const raw = section === undefined || isRecord(section) ? merge(fromFile, fromFlags) : section
  return { settings: resolveDeploySettings(raw, label), label }
}

/**
 * `--no-deltas` turns them off; `--delta-versions n` asks for them; else the build's setting
 * decides. deploy() resolves them (once), naming the flag through the label.
 */
export function deltasOfFlags(flags: DeployFlags): DeployOptions['deltas'] {
  if (flags.deltas === false) return false
  const versions = numberFlag(flags['delta-versions'])
  return versions === undefined ? undefined : { versions: versions as number }
}

function merge(file: DeploySettings, flags: DeploySettings): DeploySettings {
  const merged: DeploySettings = { ...file, ...flags }
  if (flags.keep !== undefined && isRecord(file.keep)) merged.keep = { ...file.keep, ...flags.keep }
  return merged
}

/** The settings the flags set (only those given). `--keep` is releases kept in release mode, else deploys kept. */
function settingsOfFlags(flags: DeployFlags, release: boolean): DeploySettings {
  const keep = numberFlag(flags.keep) as number | undefined
  const given: Record<keyof DeploySettings, unknown> = {
    dir: flags.dir || undefined,
    to: flags.to || undefined,
    endpoint: flags.endpoint || undefined,
    region: flags.region || undefined,
    forcePathStyle: undefined,
    concurrency: numberFlag(flags.concurrency),
    delete: flags.delete,
    keep: keep === undefined || release ? undefined : { deploys: keep },
    dryRun: flags['dry-run'],
    release: flags.release,
    keepReleases: release ? keep : undefined,
    ssh: undefined,
    timeout: numberFlag(flags.timeout),
    deleteUnknown: flags['delete-unknown'],
    includeDotfiles: flags['include-dotfiles'],
  }
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as DeploySettings
}

/**
 * How a setting is named: `` `deploy.timeout` in <file> `` for one the file set and the flags did
 * not, else its flag (`--timeout`), also for a setting set nowhere that a message suggests
 * (`--delete-unknown`); the file's key for a setting without a flag (`ssh`, `forcePathStyle`).
 */
function deployLabel(fromFlags: DeploySettings, fromFile: DeploySettings, path: string | undefined): OptionLabel {
  return settingLabel('deploy', path, (key) => {
    if (key === 'deltas' || key.startsWith('deltas.')) return deltaFlagLabel(key.slice('deltas.'.length))
    const [root = ''] = key.split('.')
    if (!root || (root in fromFile && !(root in fromFlags))) return undefined
    if (root === 'keepReleases') return '--keep (releases kept)'
    if (root === 'keep') return key === 'keep' || key === 'keep.deploys' ? '--keep (deploys kept)' : undefined
    return FLAG_OF[root as keyof DeploySettings]
  })
}

/** The flag of each setting that has one. */
const FLAG_OF: Partial<Record<keyof DeploySettings, string>> = {
  dir: '--dir',
  to: '--to',
  endpoint: '--endpoint',
  region: '--region',
  concurrency: '--concurrency',
  delete: '--delete',
  dryRun: '--dry-run',
  release: '--release',
  timeout: '--timeout',
  deleteUnknown: '--delete-unknown',
  includeDotfiles: '--include-dotfiles',
}
