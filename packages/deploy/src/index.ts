// The public API. The S3 target is not here at run time: it loads the AWS SDK, so it comes from
// `createTarget('s3://…')` (which imports it only then) or from `@preencode/deploy/s3`.
export { deploy, DEFAULT_CONCURRENCY, type DeployOptions, type DeployResult, type DeploySummary } from './deploy.js'
export {
  isDefaultEntry,
  planDeploy,
  plannedUploads,
  siteObjects,
  PHASE_ORDER,
  type DeployPhase,
  type DeployPlan,
  type PlanOptions,
  type PlannedPhase,
  type PlannedUpload,
  type RemoteObject,
  type RemoteState,
  type SiteObject,
  type UploadReason,
} from './plan.js'
export { checkDeployLimits, type DeployLimitName, type DeployLimits, type NameOption } from './deploy-limits.js'
export {
  DEPLOY_STATE_FILENAME,
  type DeployRecord,
  type DeployState,
  type KeepPolicy,
  type StoredObject,
} from './state.js'
export type { DeployEvent, DeployTarget, PhaseResult, TargetContext } from './target.js'
export { createTarget, TARGETS, type TargetEntry, type TargetSettings } from './targets.js'
export { localTarget } from './local.js'
export { rsyncTarget, type RsyncTargetOptions } from './rsync.js'
export type { S3Credentials, S3RequestRecord, S3TargetOptions } from './s3-options.js'
export type { RetryOptions } from './retry.js'
