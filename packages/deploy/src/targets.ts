// The deploy target registry: how the `--to` string picks a target, validates the settings that
// apply to it, and loads its code. `load` imports only the chosen target's module, so a deploy
// to a folder never loads the AWS SDK (14 @aws-sdk modules, ~0.3 s and ~30 MB). A new target is
// one module implementing `DeployTarget` plus one entry here.
import { userError } from '@preencode/core'
import type { RsyncTargetOptions } from './targets/rsync/options.js'
import type { S3TargetOptions } from './targets/s3/options.js'
import { parseS3Url } from './targets/s3/url.js'
import type { DeployTarget } from './plan/target.js'

/** Settings from flags or the config file that only some targets accept. */
export interface TargetSettings {
  endpoint?: string | undefined
  region?: string | undefined
  forcePathStyle?: boolean | undefined
  release?: boolean | undefined
  keepReleases?: number | undefined
  ssh?: string | undefined
  /** S3: a request during which the endpoint sends nothing this long fails (ms). */
  timeoutMs?: number | undefined
}

/** One kind of target: recognise it, check its settings, load it. */
export interface TargetEntry<Options = unknown> {
  readonly kind: DeployTarget['kind']
  /** How users write it, for messages: `s3://bucket/prefix`. */
  readonly forms: readonly string[]
  /** Whether `to` (with these settings) names this kind of target. */
  matches(to: string, settings: TargetSettings): boolean
  /** The target's options from `to` and the settings; fails naming a setting that does not apply. */
  resolveOptions(to: string, settings: TargetSettings): Options
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

function refuseS3Settings(to: string, settings: TargetSettings): void {
  if (settings.endpoint || settings.region)
    throw userError('options', `--endpoint and --region apply to s3:// targets only, not ${to}.`)
  if (settings.timeoutMs !== undefined)
    throw userError('options', `--timeout applies to s3:// targets only, not ${to}.`)
}

/** An S3 endpoint must be an http(s) URL; the SDK would otherwise fail later, with a stack. */
function assertEndpointUrl(endpoint: string): void {
  let url: URL | undefined
  try {
    url = new URL(endpoint)
  } catch {
    url = undefined
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw userError(
      'options',
      `--endpoint \`${endpoint}\` is not an http(s) URL; give the store's address, e.g. http://127.0.0.1:9000 (MinIO) or https://<account>.r2.cloudflarestorage.com (R2).`,
    )
  }
}

const s3: TargetEntry<S3TargetOptions> = {
  kind: 's3',
  forms: ['s3://bucket/prefix'],
  matches: (to) => to.startsWith('s3://'),
  resolveOptions(to, settings) {
    if (settings.release)
      throw userError(
        'options',
        `--release applies to rsync and local targets, not ${to}: S3 objects are replaced in the safe order instead.`,
      )
    const { bucket, prefix } = parseS3Url(to)
    if (settings.endpoint !== undefined) assertEndpointUrl(settings.endpoint)
    return {
      bucket,
      prefix,
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      requestTimeoutMs: settings.timeoutMs,
    }
  },
  load: async () => (await import('./targets/s3/s3.js')).s3Target,
}

const local: TargetEntry<string> = {
  kind: 'local',
  forms: ['a path'],
  matches: (to, settings) => !settings.release && localPath(to) !== undefined,
  resolveOptions(to, settings) {
    refuseS3Settings(to, settings)
    return localPath(to)!
  },
  load: async () => (await import('./targets/local.js')).localTarget,
}

const rsync: TargetEntry<{ dest: string; options: RsyncTargetOptions }> = {
  kind: 'rsync',
  forms: ['user@host:path', 'rsync://host/module/path'],
  // Remote forms, and a local path in release mode (rsync builds the release directories).
  matches: (to) => /^rsync:\/\//i.test(to) || !SCHEME.test(to) || /^file:\/\//i.test(to),
  resolveOptions(to, settings) {
    refuseS3Settings(to, settings)
    return {
      dest: localPath(to) ?? to,
      options: { release: settings.release, keepReleases: settings.keepReleases, ssh: settings.ssh },
    }
  },
  load: async () => {
    const { rsyncTarget } = await import('./targets/rsync/rsync.js')
    return ({ dest, options }) => rsyncTarget(dest, options)
  },
}

/** Every target, in the order `createTarget` tries them. */
export const TARGETS: readonly TargetEntry[] = Object.freeze([local, rsync, s3] as TargetEntry[])

/**
 * `s3://bucket/prefix` -> S3; `rsync://…`, `host::module/…` and `[user@]host:path` -> rsync;
 * a local path (or `file://`) -> the local target, or rsync into a local path in release mode.
 * Loads only the chosen target's code.
 */
export async function createTarget(to: string, settings: TargetSettings = {}): Promise<DeployTarget> {
  if (!to) throw userError('options', 'The deploy target (--to) is empty.')
  const entry = TARGETS.find((candidate) => candidate.matches(to, settings))
  if (!entry) {
    const forms = TARGETS.flatMap((t) => t.forms)
    throw userError(
      'options',
      `Unknown deploy target scheme in "${to}"; use ${forms.slice(0, -1).join(', ')} or ${forms.at(-1)}.`,
    )
  }
  const options = entry.resolveOptions(to, settings)
  return (await entry.load())(options)
}
