// The deploy state: a small JSON object the deploy keeps at the target's root. It lists the keys
// of past deploys (the grace period for stale objects needs them) and, for S3, the sha256 and
// ETag of each object preencode stored, so an unchanged deploy needs one listing, not one
// HEAD per object. The ETag only proves the object was not replaced behind our back since we
// wrote it; change detection compares sha256s.
import { userError } from '@preencode/core'

/** Name of the deploy state object at the target's root. Never served by the generated configs' rules for dotfiles. */
export const DEPLOY_STATE_FILENAME = '.preencode-deploy-state.json'
/**
 * Name of the folder targets' lock file at the target's root (a dotfile: the generated configs
 * do not serve it). Here, beside the state's name, because the plan keeps both out of the site.
 */
export const LOCK_FILENAME = '.preencode-deploy.lock'
const DEPLOY_STATE_VERSION = 1
/** Past deploys remembered at most, whatever `keep` says. */
const MAX_DEPLOY_HISTORY = 50

/** How long stale objects survive once a deploy no longer names them. */
export interface KeepPolicy {
  /**
   * Keep objects that one of the last N deploys (before this one) named: with 1, files of the
   * site being replaced survive this deploy and go with the next. Pages already open in a browser
   * can still load their lazy chunks.
   * @default 0
   */
  deploys?: number
  /**
   * Keep objects named by a deploy that was live less than this many milliseconds ago.
   * @default 0
   */
  maxAgeMs?: number
}

/** One deploy in the target's history. */
export interface DeployRecord {
  /** The deploy id, e.g. `20261121T130226.123Z-3f2a`. */
  id: string
  /** When it went live, ms since the epoch. */
  time: number
  /** Every key it uploaded or kept as part of the site. */
  keys: string[]
}

/** An object as the state file records it: its sha256 (and, on S3, its ETag). */
export interface StoredObject {
  sha256: string
  /** The ETag the store returned when preencode wrote the object (S3 only). */
  etag?: string | undefined
  size?: number | undefined
  /**
   * The mtime (ms) preencode gave the file (rsync only: it cannot read it back cheaply), so a
   * changed file is never stored with an earlier version's size and mtime (`retime.ts`).
   */
  mtimeMs?: number | undefined
}

/** The state file (`DEPLOY_STATE_FILENAME`) a target keeps: its deploy history and stored objects. */
export interface DeployState {
  version: typeof DEPLOY_STATE_VERSION
  /** Newest first. */
  deploys: DeployRecord[]
  objects: Record<string, StoredObject>
}

/** Parses a state object read from a target; a broken one is an error naming where it came from. */
export function parseDeployState(text: string, where: string): DeployState {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    throw userError('deploy', `${where} is not valid JSON; delete it and deploy again.`, {
      cause,
      code: 'TARGET_FAILED',
    })
  }
  const state = value as Partial<DeployState> | null
  if (
    !state ||
    state.version !== DEPLOY_STATE_VERSION ||
    !Array.isArray(state.deploys) ||
    typeof state.objects !== 'object'
  ) {
    throw userError(
      'deploy',
      `${where} is not a preencode deploy state of version ${DEPLOY_STATE_VERSION}; delete it and deploy again.`,
      { code: 'TARGET_FAILED' },
    )
  }
  return state as DeployState
}

/**
 * Keys that the grace period protects from deletion: those named by one of the last
 * `keep.deploys` deploys, or by a deploy that was still live within `keep.maxAgeMs`.
 * A deploy stops being live when the next one is recorded (the newest is live until now).
 */
export function protectedKeys(state: DeployState | undefined, keep: KeepPolicy, now: number): Set<string> {
  const result = new Set<string>()
  if (!state) return result
  const deploys = keep.deploys ?? 0
  const maxAgeMs = keep.maxAgeMs ?? 0
  state.deploys.forEach((record, index) => {
    const replacedAt = index === 0 ? now : state.deploys[index - 1]!.time
    if (index < deploys || (maxAgeMs > 0 && now - replacedAt < maxAgeMs)) {
      for (const key of record.keys) result.add(key)
    }
  })
  return result
}

/**
 * The state after a successful deploy: this deploy recorded first, history pruned to what the
 * grace period (or the next deploy's deltas: `minDeploys` records) can still need, and object
 * hashes kept for keys that still exist.
 */
export function nextDeployState(
  previous: DeployState | undefined,
  record: DeployRecord,
  objects: Record<string, StoredObject>,
  remaining: Iterable<string>,
  keep: KeepPolicy,
  minDeploys = 0,
): DeployState {
  const history = [record, ...(previous?.deploys ?? [])]
  const maxAgeMs = keep.maxAgeMs ?? 0
  const needed = history.filter((r, index) => {
    if (index <= Math.max(1, keep.deploys ?? 0, minDeploys - 1)) return true
    const replacedAt = history[index - 1]!.time
    return maxAgeMs > 0 && record.time - replacedAt < maxAgeMs
  })
  const kept: Record<string, StoredObject> = {}
  for (const key of remaining) {
    const stored = objects[key] ?? previous?.objects[key]
    if (stored) kept[key] = stored
  }
  return { version: DEPLOY_STATE_VERSION, deploys: needed.slice(0, MAX_DEPLOY_HISTORY), objects: kept }
}

/** A readable id that sorts by time (to the millisecond): `20261121T130226.123Z-3f2a`. */
export function newDeployId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '')
  return `${stamp}-${Math.floor(Math.random() * 0x10000)
    .toString(16)
    .padStart(4, '0')}`
}
