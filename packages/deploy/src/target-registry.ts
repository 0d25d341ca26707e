// The deploy target registry: how the `--to` string picks a target, which settings it takes (the
// rest are refused, named by the label, in `createTarget`), and how its code is loaded. `load`
// imports only the chosen target's module, so a deploy to a folder never loads the AWS SDK (14
// @aws-sdk modules, ~0.3 s and ~30 MB). A new target is one module implementing `DeployTarget`
// plus one entry here; a new setting is one rule in `plan/setting-rules.ts` plus its name in the
// `settings` of the targets that take it.
import { type OptionLabel, userError } from '@preencode/core'
import { API_LABEL, DEPLOY_SETTING_KEYS, type DeploySettingName, EVERY_TARGET } from './plan/setting-rules.js'
import type { DeployTarget } from './plan/target.js'
import type { DeploySettings } from './settings.js'
import type { RsyncTargetOptions } from './targets/rsync/options.js'
import type { S3TargetOptions } from './targets/s3/options.js'
import { parseS3Url } from './targets/s3/url.js'

/** One kind of target: recognise it, declare the settings it takes, resolve its options, load it. */
export interface TargetEntry<Options = unknown> {
  readonly kind: DeployTarget['kind']
  /** Its name in messages: `the S3 target (s3://b)`, `--endpoint: S3 only`. */
  readonly name: string
  /**
   * The settings it takes besides those of every deploy (`EVERY_TARGET`: `dir`, `to`, `delete`…);
   * `createTarget` refuses any other one that is set, naming it by the label.
   */
  readonly settings: readonly DeploySettingName[]
  /** Why a setting is not taken, where the target does the job another way (a sentence, no CLI flag). */
  readonly instead?: Partial<Record<DeploySettingName, string>>
  /** How users write it, for messages: `s3://bucket/prefix`. */
  readonly forms: readonly string[]
  /** Whether `to` (with these settings) names this kind of target. */
  matches(to: string, settings: DeploySettings): boolean
  /** The target's options from `to` and the settings it takes; `label` names a setting in the target's messages. */
  resolveOptions(to: string, settings: DeploySettings, label: OptionLabel): Options
  /** Imports the target's module (only now) and creates it. */
  load(): Promise<(options: Options) => DeployTarget>
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i
/** `rsync://…`, `host::module/…` or `[user@]host:path`. */
const REMOTE = /^(rsync:\/\/|[^/:]+::|[^/:]+:)/

/** A `file://` URL or a plain path that names no remote host. */
function localPath(to: string): string | undefined {
  if (/^file:\/\//i.test(to)) return to.replace(/^file:\/\//i, '')
  return REMOTE.test(to) ? undefined : to
}

/** An S3 endpoint must be an http(s) URL; the SDK would otherwise fail later, with a stack. */
function assertEndpointUrl(endpoint: string, label: OptionLabel): void {
  let url: URL | undefined
  try {
    url = new URL(endpoint)
  } catch {
    url = undefined
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw userError(
      'options',
      `${label('endpoint')} is \`${endpoint}\`, not an http(s) URL; give the store's address, e.g. http://127.0.0.1:9000 (MinIO) or https://<account>.r2.cloudflarestorage.com (R2).`,
    )
  }
}

const s3: TargetEntry<S3TargetOptions> = {
  kind: 's3',
  name: 'S3',
  settings: ['endpoint', 'region', 'forcePathStyle', 'timeout'],
  instead: { release: 'S3 objects are replaced in the safe order instead' },
  forms: ['s3://bucket/prefix'],
  matches: (to) => to.startsWith('s3://'),
  resolveOptions(to, settings, label) {
    const { bucket, prefix } = parseS3Url(to)
    if (settings.endpoint !== undefined) assertEndpointUrl(settings.endpoint, label)
    return {
      bucket,
      prefix,
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      timeout: settings.timeout,
      label,
    }
  },
  load: async () => (await import('./targets/s3/s3.js')).s3Target,
}

const local: TargetEntry<{ dir: string; label: OptionLabel }> = {
  kind: 'local',
  name: 'local folder',
  // In release mode a local path is the rsync target's (it builds the release directories).
  settings: [],
  forms: ['a path'],
  matches: (to, settings) => !settings.release && localPath(to) !== undefined,
  resolveOptions: (to, _settings, label) => ({ dir: localPath(to)!, label }),
  load: async () => {
    const { localTarget } = await import('./targets/local.js')
    return ({ dir, label }) => localTarget(dir, label)
  },
}

const rsync: TargetEntry<{ dest: string; options: RsyncTargetOptions }> = {
  kind: 'rsync',
  name: 'rsync',
  settings: ['release', 'keepReleases', 'ssh'],
  forms: ['user@host:path', 'rsync://host/module/path'],
  // Remote forms, and a local path in release mode (rsync builds the release directories).
  matches: (to) => /^rsync:\/\//i.test(to) || !SCHEME.test(to) || /^file:\/\//i.test(to),
  resolveOptions: (to, settings) => ({
    dest: localPath(to) ?? to,
    options: { release: settings.release, keepReleases: settings.keepReleases, ssh: settings.ssh },
  }),
  load: async () => {
    const { rsyncTarget } = await import('./targets/rsync/rsync.js')
    return ({ dest, options }) => rsyncTarget(dest, options)
  },
}

/** Every target, in the order `createTarget` tries them. */
export const TARGETS: readonly TargetEntry[] = Object.freeze([local, rsync, s3] as TargetEntry[])

/**
 * The names of the targets that take `setting` (`['S3']` for `endpoint`); every target's for a
 * setting of every deploy. The CLI's "applies to X only" is this list.
 */
export function targetsTaking(setting: DeploySettingName): string[] {
  return TARGETS.filter((entry) => takes(entry, setting)).map((entry) => entry.name)
}

function takes(entry: TargetEntry, setting: DeploySettingName): boolean {
  return EVERY_TARGET.includes(setting) || entry.settings.includes(setting)
}

/**
 * Refuses the first setting that is set (a boolean turned off asks for nothing) and that `entry`
 * does not take, in one line naming the setting (by `label`), the target and the ones that take it.
 */
function refuseForeignSettings(entry: TargetEntry, to: string, settings: DeploySettings, label: OptionLabel): void {
  for (const key of DEPLOY_SETTING_KEYS) {
    const value = settings[key]
    if (value === undefined || value === false || takes(entry, key)) continue
    const why = entry.instead?.[key]
    throw userError(
      'options',
      `${label(key)} does not apply to the ${entry.name} target (${to})${why ? `: ${why}` : ''}; it applies to ${targetsTaking(key).join(' and ')} targets only.`,
    )
  }
}

/**
 * `s3://bucket/prefix` -> S3; `rsync://…`, `host::module/…` and `[user@]host:path` -> rsync;
 * a local path (or `file://`) -> the local target, or rsync into a local path in release mode.
 * Loads only the chosen target's code. `label` names a setting in messages as the user wrote it
 * (see `resolveDeploySettings`); by default its key.
 */
export async function createTarget(
  to: string,
  settings: DeploySettings = {},
  label: OptionLabel = API_LABEL,
): Promise<DeployTarget> {
  if (!to) throw userError('options', `The deploy target (${label('to')}) is empty.`)
  const entry = TARGETS.find((candidate) => candidate.matches(to, settings))
  if (!entry) {
    const forms = TARGETS.flatMap((t) => t.forms)
    throw userError(
      'options',
      `Unknown deploy target scheme in "${to}"; use ${forms.slice(0, -1).join(', ')} or ${forms.at(-1)}.`,
    )
  }
  refuseForeignSettings(entry, to, settings, label)
  const options = entry.resolveOptions(to, settings, label)
  return (await entry.load())(options)
}
