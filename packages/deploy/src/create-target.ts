// Turns the `--to` string into a target: the CLI and config files name targets as URLs.
import { userError } from '@preencode/core'
import { localTarget } from './local.js'
import { rsyncTarget } from './rsync.js'
import { parseS3Url, s3Target } from './s3.js'
import type { DeployTarget } from './target.js'

export interface TargetSettings {
  endpoint?: string | undefined
  region?: string | undefined
  forcePathStyle?: boolean | undefined
  release?: boolean | undefined
  keepReleases?: number | undefined
  ssh?: string | undefined
}

/** An S3 endpoint must be an http(s) URL; the SDK would otherwise fail later with a stack. */
function assertEndpointUrl(endpoint: string): void {
  let url: URL | undefined
  try {
    url = new URL(endpoint)
  } catch {
    url = undefined
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw userError('options', `--endpoint \`${endpoint}\` is not an http(s) URL; give the store's address, e.g. http://127.0.0.1:9000 (MinIO) or https://<account>.r2.cloudflarestorage.com (R2).`)
  }
}

/**
 * `s3://bucket/prefix` -> S3; `rsync://…`, `host::module/…` and `[user@]host:path` -> rsync;
 * a local path (or `file://`) -> the local target, or rsync into a local path in release mode.
 */
export function createTarget(to: string, settings: TargetSettings = {}): DeployTarget {
  if (!to) throw userError('options', 'The deploy target (--to) is empty.')
  if (to.startsWith('s3://')) {
    if (settings.release) throw userError('options', `--release applies to rsync and local targets, not ${to}: S3 objects are replaced in the safe order instead.`)
    const { bucket, prefix } = parseS3Url(to)
    if (settings.endpoint !== undefined) assertEndpointUrl(settings.endpoint)
    return s3Target({ bucket, prefix, endpoint: settings.endpoint, region: settings.region, forcePathStyle: settings.forcePathStyle })
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(to) && !/^(rsync|file):\/\//i.test(to)) {
    throw userError('options', `Unknown deploy target scheme in "${to}"; use a path, user@host:path, rsync://host/module/path or s3://bucket/prefix.`)
  }
  if (settings.endpoint || settings.region) throw userError('options', `--endpoint and --region apply to s3:// targets only, not ${to}.`)
  const path = to.replace(/^file:\/\//i, '')
  const isLocal = path === to ? !/^(rsync:\/\/|[^/:]+::|[^/:]+:)/.test(to) : true
  const rsyncOptions = { release: settings.release, keepReleases: settings.keepReleases, ssh: settings.ssh }
  if (isLocal && !settings.release) return localTarget(path)
  return rsyncTarget(path, rsyncOptions)
}
