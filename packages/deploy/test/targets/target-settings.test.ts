// Each deploy target declares the settings it takes (issue 38.2); `createTarget` refuses every
// other one in one line naming the setting (as the label spells it) and the target. Before the
// table, `forcePathStyle` passed silently to the folder and rsync targets, and `ssh` and
// `keepReleases` to S3.
import { describe, expect, it } from 'vitest'
import {
  createTarget,
  type DeploySettings,
  EVERY_TARGET,
  localTarget,
  TARGETS,
  targetsTaking,
} from '../../src/index.js'
import { DEPLOY_SETTING_KEYS, type DeploySettingName } from '../../src/plan/setting-rules.js'
import { s3Error } from '../../src/targets/s3/errors.js'

/** A destination of each target. */
const DESTINATIONS = { local: './public', rsync: 'deploy@example.com:/srv/www', s3: 's3://bucket/www' } as const

/** A valid value of each setting that only some targets take. */
const SAMPLE: Partial<Record<DeploySettingName, DeploySettings[keyof DeploySettings]>> = {
  endpoint: 'http://127.0.0.1:9000',
  region: 'eu-west-1',
  forcePathStyle: true,
  timeout: 5,
  release: true,
  keepReleases: 3,
  ssh: 'ssh -p 2222',
}

const flag: (key: string) => string = (key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`

describe('the settings each target takes', () => {
  it('every setting is one of every deploy, or taken by some target', () => {
    for (const key of DEPLOY_SETTING_KEYS) {
      const owners = targetsTaking(key)
      expect(owners.length, key).toBeGreaterThan(0)
      if (!EVERY_TARGET.includes(key)) expect(SAMPLE[key], key).toBeDefined()
    }
    expect(targetsTaking('endpoint')).toEqual(['S3'])
    expect(targetsTaking('ssh')).toEqual(['rsync'])
    expect(targetsTaking('delete')).toEqual(['local folder', 'rsync', 'S3'])
  })

  it.each(TARGETS.map((entry) => [entry.name, entry] as const))(
    'the %s target takes its own settings',
    async (_, entry) => {
      const to = DESTINATIONS[entry.kind]
      const own = Object.fromEntries(entry.settings.map((key) => [key, SAMPLE[key]]))
      expect((await createTarget(to, own)).kind).toBe(entry.kind)
    },
  )

  // A local path in release mode is the rsync target's: `release` picks rsync, it is not foreign there.
  const foreign = TARGETS.flatMap((entry) =>
    DEPLOY_SETTING_KEYS.filter(
      (key) =>
        !EVERY_TARGET.includes(key) && !entry.settings.includes(key) && !(entry.kind === 'local' && key === 'release'),
    ).map((key) => [entry.name, key, entry] as const),
  )

  it.each(foreign)(
    'the %s target refuses `%s`, naming it and the target, from code and from a flag',
    async (_, key, entry) => {
      const to = DESTINATIONS[entry.kind]
      const settings = { [key]: SAMPLE[key] } as DeploySettings
      const owners = targetsTaking(key).join(' and ')
      const line = (name: string) =>
        new RegExp(
          `^\\[preencode\\] \\[options\\] ${name.replace(/[()]/g, '\\$&')} does not apply to the ${entry.name} target \\(${to.replace(/[./]/g, '\\$&')}\\)(: [^;]+)?; it applies to ${owners} targets only\\.$`,
        )
      await expect(createTarget(to, settings)).rejects.toThrow(line(`\`${key}\``))
      await expect(createTarget(to, settings, flag)).rejects.toThrow(line(flag(key)))
    },
  )

  it('names the settings the issue found passing silently', async () => {
    await expect(createTarget('s3://bucket', { ssh: 'ssh -p 2222' })).rejects.toThrow(
      '`ssh` does not apply to the S3 target (s3://bucket); it applies to rsync targets only.',
    )
    await expect(createTarget('s3://bucket', { keepReleases: 2 })).rejects.toThrow(
      '`keepReleases` does not apply to the S3 target (s3://bucket); it applies to rsync targets only.',
    )
    await expect(createTarget('./public', { forcePathStyle: true })).rejects.toThrow(
      '`forcePathStyle` does not apply to the local folder target (./public); it applies to S3 targets only.',
    )
    await expect(createTarget('host:/srv', { forcePathStyle: true })).rejects.toThrow(
      '`forcePathStyle` does not apply to the rsync target (host:/srv); it applies to S3 targets only.',
    )
  })

  it('a boolean turned off asks for nothing, and is not refused', async () => {
    expect((await createTarget('s3://bucket', { release: false })).kind).toBe('s3')
    expect((await createTarget('./public', { forcePathStyle: false })).kind).toBe('local')
  })
})

describe("the targets' messages name an option as the user set it (issue 38.3)", () => {
  const context = { root: '/tmp', deployId: 'd1', concurrency: 1, emit: () => {} }

  it('the local target: `to` from code, the label from createTarget', async () => {
    const missing = '/nonexistent-preencode-parent/out'
    await expect(localTarget(missing).begin!(context)).rejects.toThrow(
      /does not exist\. Create it first, or check `to`\.$/,
    )
    const target = await createTarget(missing, {}, flag)
    await expect(target.begin!(context)).rejects.toThrow(/does not exist\. Create it first, or check --to\.$/)
  })

  it('the S3 errors: `endpoint` and `region` from code, the label when given one, never a flag by themselves', () => {
    const noBucket = Object.assign(new Error('no'), { name: 'NoSuchBucket' })
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    expect(s3Error(noBucket, 's3://b/', 'listing', []).message).toMatch(
      /fix the bucket name, `endpoint` or `region`\.$/,
    )
    expect(s3Error(noBucket, 's3://b/', 'listing', [], undefined, flag).message).toMatch(
      /fix the bucket name, --endpoint or --region\.$/,
    )
    expect(s3Error(refused, 's3://b/', 'listing', []).message).toMatch(
      /Check `endpoint` and that the server is running\.$/,
    )
    expect(s3Error(refused, 's3://b/', 'listing', [], undefined, flag).message).not.toContain('`endpoint`')
  })
})
