// The deploy settings a user writes, declared once: the `deploy` section of `preencode.config.*`,
// the flags of `preencode deploy` and `createTarget()`'s settings are the same names, picked
// from the options of the code that uses each one; `resolveDeploySettings` checks them all by
// the rules in `plan/setting-rules.ts`.
import type { OptionLabel } from '@preencode/core'
import type { DeployOptions } from './deploy.js'
import {
  API_LABEL,
  checkDeploySettings,
  DEPLOY_SETTING_KEYS,
  type DeploySettingName,
  fail,
} from './plan/setting-rules.js'
import type { RsyncTargetOptions } from './targets/rsync/options.js'
import type { S3TargetOptions } from './targets/s3/options.js'

/**
 * The deploy settings: the `deploy` section of `preencode.config.*`, the flags of `preencode
 * deploy`, and `createTarget()`'s settings. Each one is documented where the code that uses it
 * takes it: {@link DeployOptions}, {@link S3TargetOptions}, {@link RsyncTargetOptions}.
 */
export interface DeploySettings
  extends Pick<
      DeployOptions,
      'dir' | 'dryRun' | 'concurrency' | 'delete' | 'keep' | 'deleteUnknown' | 'includeDotfiles'
    >,
    Pick<S3TargetOptions, 'endpoint' | 'region' | 'forcePathStyle' | 'timeout'>,
    Pick<RsyncTargetOptions, 'release' | 'keepReleases' | 'ssh'> {
  /**
   * Where to: a local path, `user@host:path`, `rsync://host[:port]/module/path` or `s3://bucket/prefix`.
   * There is no default: deploying somewhere implicit could overwrite the wrong folder.
   */
  to?: string
}

// The rules cover exactly the documented settings (a compile error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const RULES_MATCH: Same<keyof DeploySettings, DeploySettingName> = true
void RULES_MATCH

/**
 * The deploy settings from a config file's `deploy` section, the CLI's flags or code: unknown
 * keys, types, units and limits checked. `label` names a setting where the user wrote it
 * (`--timeout`, `` `deploy.timeout` in preencode.config.json ``; `label('')` is the whole section);
 * by default the setting's key (`` `timeout` ``).
 */
export function resolveDeploySettings(raw: unknown, label: OptionLabel = API_LABEL): DeploySettings {
  if (raw === undefined) return {}
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    fail(`${label('')} must be an object of deploy settings; got ${JSON.stringify(raw)}.`)
  const values = raw as Record<string, unknown>
  for (const key of Object.keys(values)) {
    if (!(DEPLOY_SETTING_KEYS as readonly string[]).includes(key))
      fail(`${label(key)} is unknown; known: ${DEPLOY_SETTING_KEYS.join(', ')}.`)
  }
  checkDeploySettings(values, label)
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as DeploySettings
}
