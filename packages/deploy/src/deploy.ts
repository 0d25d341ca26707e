// Runs a plan against a target in the safe order: every upload phase completes before the next
// starts, the release (if any) goes live after the last phase, the deploy state is written, and
// only then are stale objects deleted. A failure at any point leaves the old site served; a
// rerun plans again from what the target holds, so it converges.
import { resolve } from 'node:path'
import {
  type DeltaOptions,
  type DeltaReport,
  type Manifest,
  type OptionLabel,
  reconcileManifest,
  userError,
} from '@preencode/core'
import { assertDeployTarget, assertSiteFolder, unknownFilesMessage } from './deploy-checks.js'
import { resolveDeployDeltas, writeDeployDeltas } from './deploy-deltas.js'
import { deployedManifest } from './plan/deployed-manifest.js'
import {
  type DeployPlan,
  isDefaultEntry,
  type PlanOptions,
  planDeploy,
  type RemoteState,
  siteObjects,
} from './plan/plan.js'
import { API_LABEL, checkDeploySettings } from './plan/setting-rules.js'
import { isSiteEncoding, siteFilesOf } from './plan/stale-deltas.js'
import { type KeepPolicy, newDeployId, nextDeployState } from './plan/state.js'
import type { DeployEvent, DeployTarget, TargetContext } from './plan/target.js'

/** `deploy()`'s options: the site, the target, and how the plan is made and carried out. */
export interface DeployOptions extends Omit<PlanOptions, 'now'> {
  /**
   * The site directory holding `.preencode-manifest.json`.
   * @default 'dist'
   */
  dir?: string
  /** Where to deploy: {@link localTarget}, {@link rsyncTarget} or {@link s3Target}. */
  target: DeployTarget
  /**
   * Plan only: list what would be uploaded, skipped and deleted, and write nothing.
   * @default false
   */
  dryRun?: boolean
  /**
   * Uploads and requests in flight at most.
   * @default 8
   */
  concurrency?: number
  /**
   * The manifest to deploy by, taken as is. When not given, `dir`'s manifest is read and first
   * brought up to date with the disk: files changed, added or removed since it was written are
   * compressed again (see `reconcileManifest`), so no stale variant is ever uploaded.
   */
  manifest?: Manifest
  /**
   * Delta updates (RFC 9842) against what the target holds: before planning, the versions
   * visitors may still hold are read from the target (its listing and deploy state; the bytes
   * only of versions of changed files), and `.dcb`/`.dcz` deltas for the new files are written
   * into `dir` and uploaded with the assets, before the pages. `deltas.versions` deploys are
   * remembered in the deploy state for the next deploy. Skipped in a dry run.
   * @default on when the build announced dictionaries (`useAsDictionary` in the manifest)
   */
  deltas?: boolean | DeltaOptions
  /**
   * With `delete`, on a target that has no deploy state (preencode never deployed there): also
   * delete the files found there that the site does not have. Without it, such a deploy refuses
   * before writing anything and names them (a dry run lists them with a warning): preencode did
   * not write them, and they may be someone's. Once a deploy has run, `delete` removes what the
   * site no longer has, like `rsync --delete`.
   * @default false
   */
  deleteUnknown?: boolean
  /**
   * Checks the manifest the deploy goes by (with the deltas it just wrote) before anything is
   * uploaded, in a dry run too: a throw stops the deploy with nothing uploaded or deleted. The
   * CLI checks CloudFront's KeyValueStore limits here (`--key-value-store`).
   */
  check?: (manifest: Manifest) => void | Promise<void>
  /** Progress and diagnostics. */
  onEvent?: (event: DeployEvent) => void
}

/** What a deploy did, in numbers: objects and bytes uploaded, kept and deleted, requests, time. */
export interface DeploySummary {
  target: string
  deployId: string
  dryRun: boolean
  /** Objects written (for rsync: those rsync found different). */
  uploaded: number
  uploadedBytes: number
  skipped: number
  deleted: number
  /** Stale objects left in place (grace period, or `delete` off). */
  kept: number
  /** Dotfiles of the site not uploaded (`includeDotfiles` off); the plan's `leftOut` names them. */
  leftOut: number
  /** Requests the target made (HTTP requests for S3). */
  requests: number
  durationMs: number
  /** The deltas written against the target's previous versions, when delta updates ran. */
  deltas?: DeltaReport | undefined
}

/** What `deploy()` returns: the plan it carried out (or would have, with `dryRun`) and its summary. */
export interface DeployResult {
  plan: DeployPlan
  summary: DeploySummary
}

/** Uploads in flight at once, unless `concurrency` says otherwise. */
export const DEFAULT_CONCURRENCY = 8

/** Defaults of {@link DeployOptions}. */
const DEFAULT_DEPLOY_OPTIONS = Object.freeze({
  dir: 'dist',
  dryRun: false,
  concurrency: DEFAULT_CONCURRENCY,
  delete: false,
  keep: Object.freeze({ deploys: 0, maxAgeMs: 0 }),
  includeDotfiles: false,
} satisfies Required<Pick<DeployOptions, 'dir' | 'dryRun' | 'concurrency' | 'delete' | 'keep' | 'includeDotfiles'>>)

/** The plan of one deploy, what the target held when it was made, and when. */
interface Planned {
  plan: DeployPlan
  remote: RemoteState
  now: number
}

/** One deploy's state, built by the steps below: `openRun → writeDeltas → planRun → applyPlan`. */
interface Run {
  options: DeployOptions
  target: DeployTarget
  context: TargetContext
  keep: KeepPolicy
  manifest: Manifest
  deltas?: DeltaReport | undefined
  deltaOptions?: ReturnType<typeof resolveDeployDeltas>
  label: OptionLabel // names an option in messages as the user set it
}

/**
 * Deploys the site in `dir` to `target` (see the module comment). `label` names an option in messages
 * as the user wrote it (the CLI: a flag); by default its key (`` `concurrency` ``, `` `deltas.versions` ``).
 */
export async function deploy(options: DeployOptions, label: OptionLabel = API_LABEL): Promise<DeployResult> {
  const started = performance.now()
  checkDeploySettings(options, label)
  assertDeployTarget(options.target)
  const run = await openRun(options, label)
  const { target } = run
  try {
    // The lock first: two deploys into one folder would each plan from the state before the other's copies.
    if (!options.dryRun) await target.begin?.(run.context)
    await writeDeltas(run)
    await options.check?.(run.manifest)
    const planned = await planRun(run)
    const { plan } = planned
    const summary: DeploySummary = {
      target: target.description,
      deployId: run.context.deployId,
      dryRun: options.dryRun ?? false,
      uploaded: 0,
      uploadedBytes: 0,
      skipped: plan.skipped.length,
      deleted: 0,
      kept: plan.kept.length,
      leftOut: plan.leftOut.length,
      requests: 0,
      durationMs: 0,
      deltas: run.deltas,
    }
    if (options.dryRun) {
      summary.uploaded = plan.phases.reduce((n, p) => n + p.uploads.length, 0)
      summary.uploadedBytes = plan.uploadBytes
      // What the plan lists is what would go: the summary must say the same.
      summary.deleted = plan.deletions.length
    } else {
      await applyPlan(run, planned, summary)
    }
    summary.requests = target.requestCount()
    summary.durationMs = Math.round(performance.now() - started)
    return { plan, summary }
  } finally {
    await target.close?.()
  }
}

/** The context, the manifest (brought up to date with the disk unless given), the delta options (resolved once). */
async function openRun(options: DeployOptions, label: OptionLabel): Promise<Run> {
  const root = resolve(options.dir ?? DEFAULT_DEPLOY_OPTIONS.dir)
  const concurrency = options.concurrency ?? DEFAULT_DEPLOY_OPTIONS.concurrency
  const deployId = newDeployId()
  const context: TargetContext = { root, deployId, concurrency, emit: options.onEvent ?? (() => {}) }
  if (!options.manifest) await assertSiteFolder(root)
  const manifest =
    options.manifest ??
    (
      await reconcileManifest(root, {
        logger: {
          info: (message) => context.emit({ type: 'note', message }),
          warn: (message) => context.emit({ type: 'warning', message }),
        },
      })
    ).manifest
  const deltaOptions = resolveDeployDeltas(options.deltas, manifest, label)
  return { options, target: options.target, context, keep: options.keep ?? {}, manifest, deltaOptions, label }
}

/** Deltas against the target's previous versions, written into the site; the manifest gains them. */
async function writeDeltas(run: Run): Promise<void> {
  const { options, target, context } = run
  if (!run.deltaOptions || options.dryRun) return
  const written = await writeDeployDeltas(context.root, run.manifest, run.deltaOptions, target, context)
  if (written) {
    run.manifest = written.manifest
    run.deltas = written.report
  } else if (options.deltas !== undefined)
    context.emit({
      type: 'warning',
      message: `${target.description} cannot list its previous versions (no previousVersions()): no deltas were written; pass deltas.previous (a folder holding the live site).`,
    })
}

/** What the target holds and the plan against it; refuses to delete files preencode did not write. */
async function planRun(run: Run): Promise<Planned> {
  const { options, target, context } = run
  const isEntry = options.isEntry ?? isDefaultEntry
  const remote = await target.readRemote(siteObjects(run.manifest, isEntry, options.includeDotfiles), context)
  context.emit({ type: 'remote', objects: remote.objects.size })
  const now = Date.now()
  const plan = planDeploy(run.manifest, remote, {
    delete: options.delete,
    keep: run.keep,
    isEntry,
    now,
    includeDotfiles: options.includeDotfiles,
  })
  // Stale variants and deltas of the site's files go whatever the target's history (stale-deltas.ts).
  const siteFiles = siteFilesOf(run.manifest)
  const unknown = plan.deletions.filter((key) => !isSiteEncoding(key, siteFiles))
  if (!remote.state && unknown.length > 0 && !options.deleteUnknown) {
    const message = unknownFilesMessage(target.description, unknown, run.label)
    if (!options.dryRun) throw userError('deploy', message, { code: 'BAD_INPUT' })
    context.emit({ type: 'warning', message: `without ${run.label('dryRun')} this deploy would stop: ${message}` })
  }
  return { plan, remote, now }
}

/** Every phase in order, the manifest beside them, the release live, the state written, and only then the deletions. */
async function applyPlan(run: Run, planned: Planned, summary: DeploySummary): Promise<void> {
  const { target, context } = run
  const { plan } = planned
  for (const phase of plan.phases) {
    if (phase.uploads.length === 0 && phase.unchanged.length === 0) continue
    if (phase.uploads.length > 0) {
      const bytes = phase.uploads.reduce((n, u) => n + u.size, 0)
      context.emit({ type: 'phase', phase: phase.phase, uploads: phase.uploads.length, bytes })
    }
    const result = await target.uploadPhase(phase, context)
    summary.uploaded += result.uploaded
    summary.uploadedBytes += result.bytes
  }
  // rsync checks files the plan could not hash itself and may find them identical.
  summary.skipped += plan.phases.reduce((n, p) => n + p.uploads.length, 0) - summary.uploaded
  await target.writeManifest?.(deployedManifest(run.manifest, plan, planned.remote.objects), context)
  await target.commit?.(context.deployId, context)
  await writeState(run, planned, summary)
  if (plan.deletions.length > 0) {
    await target.deleteKeys(plan.deletions, context)
    context.emit({ type: 'delete', keys: plan.deletions })
    summary.deleted = plan.deletions.length
  }
}

/** The deploy state, written only when this deploy changed something it records. */
async function writeState(run: Run, { plan, remote, now }: Planned, summary: DeploySummary): Promise<void> {
  const learnt = run.target.storedObjects?.() ?? {}
  const changed =
    summary.uploaded > 0 ||
    plan.deletions.length > 0 ||
    !sameKeys(remote.state?.deploys[0]?.keys, plan.keys) ||
    Object.entries(learnt).some(([key, stored]) => {
      const known = remote.state?.objects[key]
      return !known || known.sha256 !== stored.sha256 || known.etag !== stored.etag
    })
  if (!changed) return
  const remaining = [...plan.keys, ...plan.kept]
  const { deployId } = run.context
  const entry = { id: deployId, time: now, keys: plan.keys }
  const state = nextDeployState(remote.state, entry, learnt, remaining, run.keep, run.deltaOptions?.versions)
  await run.target.writeState(state, run.context)
}

function sameKeys(a: readonly string[] | undefined, b: readonly string[]): boolean {
  if (!a || a.length !== b.length) return false
  const set = new Set(a)
  return b.every((key) => set.has(key))
}
