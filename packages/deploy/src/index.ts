// The public API. The S3 target is not here at run time: it loads the AWS SDK, so it comes from
// `createTarget('s3://…')` (which imports it only then) or from `@preencode/deploy/s3`.

export { DEFAULT_CONCURRENCY, type DeployOptions, type DeployResult, type DeploySummary, deploy } from './deploy.js'
export {
  type DeployPhase,
  type DeployPlan,
  type PlannedPhase,
  type PlannedUpload,
  type PlanOptions,
  planDeploy,
  type RemoteObject,
  type RemoteState,
  type SiteObject,
  type UploadReason,
} from './plan/plan.js'
export { type DeploySettingName, EVERY_TARGET } from './plan/setting-rules.js'
export {
  DEPLOY_STATE_FILENAME,
  type DeployRecord,
  type DeployState,
  type KeepPolicy,
  type StoredObject,
} from './plan/state.js'
export type { DeployEvent, DeployTarget, PhaseResult, TargetContext } from './plan/target.js'
export { type DeploySettings, resolveDeploySettings } from './settings.js'
export { createTarget, TARGETS, type TargetEntry, targetsTaking } from './target-registry.js'
export { localTarget } from './targets/local.js'
export { type RsyncTargetOptions, rsyncTarget } from './targets/rsync/rsync.js'
export type { S3Credentials, S3RequestRecord, S3TargetOptions } from './targets/s3/options.js'
export type { RetryOptions } from './targets/s3/retry.js'
