import { mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import {
  formatBytes,
  formatDeltaReport,
  isPreencodeError,
  type Manifest,
  readManifest,
  userError,
} from '@preencode/core'
import { writeFileAtomically } from '@preencode/core/internal'
import { createTarget, type DeployEvent, type DeploySettingName, deploy, targetsTaking } from '@preencode/deploy'
import { cloudfrontKeyValueStore } from '@preencode/server-config'
import { defineCommand } from 'citty'
import { loadConfig } from '../options/config-file.js'
import { deltasOfFlags, resolveDeployFlags } from '../options/deploy.js'
import { assertKnownFlags } from '../options/flags.js'
import { type OutputStream, printJson } from '../output.js'
import { formatPlan, formatSummary } from '../render.js'

/** "S3 only", from the target registry: the targets that take `setting`. */
const only = (setting: DeploySettingName): string => `${targetsTaking(setting).join(', ')} only`

const args = {
  dir: {
    type: 'positional',
    description: 'The built site (holding .preencode-manifest.json); default: deploy.dir of the config file, else dist',
    required: false,
  },
  to: {
    type: 'string',
    description: 'Target: ./path, user@host:path, rsync://host[:port]/module/path or s3://bucket/prefix',
    valueHint: 'target',
  },
  'dry-run': { type: 'boolean', description: 'Print the plan (upload, skip, delete) and change nothing' },
  json: { type: 'boolean', description: 'Print the summary (and the plan) as JSON' },
  concurrency: { type: 'string', description: 'Uploads in flight at most (default 8)', valueHint: 'n' },
  delete: { type: 'boolean', description: 'Delete objects the site no longer has, after every upload succeeded' },
  'delete-unknown': {
    type: 'boolean',
    description:
      'With --delete where preencode never deployed (no deploy state): also delete the files found there that the site does not have',
  },
  'include-dotfiles': {
    type: 'boolean',
    description:
      'Upload dotfiles and files in dot-folders too (.env, .git/…); by default only /.well-known/ and .htaccess files leave this machine',
  },
  keep: {
    type: 'string',
    description:
      'With --delete: keep files of the last N deploys (grace period); with --release: releases kept (default 5)',
    valueHint: 'n',
  },
  endpoint: {
    type: 'string',
    description: `${only('endpoint')}: endpoint of an S3-compatible store (MinIO, R2…), path-style addressing`,
    valueHint: 'url',
  },
  region: {
    type: 'string',
    description: `${only('region')}: region (default AWS_REGION, else us-east-1)`,
    valueHint: 'region',
  },
  timeout: {
    type: 'string',
    description: `${only('timeout')}: fail a request after this many seconds without an answer, retried once (default 30)`,
    valueHint: 'seconds',
  },
  release: {
    type: 'boolean',
    description: `${only('release')} (a local path is then deployed by rsync): upload into releases/<id>, then switch the current symlink atomically`,
  },
  deltas: {
    type: 'boolean',
    default: true,
    description:
      'Write .dcb/.dcz deltas against the versions the target holds (read from it) before uploading; on when the build announced dictionaries',
    negativeDescription: 'Upload the site as built, no deltas from the target',
  },
  'delta-versions': {
    type: 'string',
    description: 'Deltas against at most this many previously deployed versions of each file (default 4)',
    valueHint: 'n',
  },
  'key-value-store': {
    type: 'string',
    description:
      'After the upload, write the CloudFront KeyValueStore data (import JSON) of what was deployed, its deltas included, to this file',
    valueHint: 'file',
  },
} as const

/**
 * `preencode deploy [dir] --to <target>`: settings from `preencode.config.*` in the working
 * directory, flags override them. There is no default target: without `--to` or `deploy.to`
 * the command stops and says how to name one, rather than writing somewhere implicit.
 */
export const deployCommand = defineCommand({
  meta: { name: 'deploy', description: 'Upload a compressed site in a safe order: assets, then HTML, then deletions' },
  args,
  async run({ args: parsed, rawArgs }) {
    assertKnownFlags(rawArgs, args)
    const loaded = await loadConfig(process.cwd())
    const { settings, label } = resolveDeployFlags(parsed, loaded)
    if (!settings.to) {
      throw userError(
        'cli',
        `No deploy target. Pass --to <./folder | user@host:path | rsync://host/module/path | s3://bucket/prefix>, or set deploy.to in preencode.config.{ts,js,mjs,json}${loaded ? ` (${loaded.path} has none)` : ''}.`,
      )
    }
    const json = parsed.json === true
    const target = await createTarget(settings.to, settings, label)
    const progress = createDeployProgress(process.stderr)
    const { plan, summary } = await deploy(
      {
        dir: resolve(settings.dir ?? 'dist'),
        target,
        dryRun: settings.dryRun,
        concurrency: settings.concurrency,
        delete: settings.delete,
        deleteUnknown: settings.deleteUnknown,
        includeDotfiles: settings.includeDotfiles,
        keep: settings.keep,
        deltas: deltasOfFlags(parsed),
        // CloudFront's KeyValueStore limits, before any upload (and in a dry run): the store is
        // written after the upload, when a failure would leave live objects and no store.
        check: parsed['key-value-store'] === undefined ? undefined : checkKeyValueStore,
        onEvent: (event) => {
          if (event.type === 'note') process.stderr.write(`${event.message}\n`)
          if (event.type === 'warning') process.stderr.write(`warning: ${event.message}\n`)
          // DEBUG=preencode:* (or preencode:deploy) shows retries on stderr; they are otherwise silent.
          if (event.type === 'retry' && /(^|,)\s*preencode:(\*|deploy)/.test(process.env.DEBUG ?? '')) {
            process.stderr.write(
              `preencode:deploy retry ${event.attempt} of ${event.what} in ${event.delayMs} ms (${event.error})\n`,
            )
          }
          if (!json) progress.update(event)
        },
      },
      label,
    )
    progress.done()
    // After the upload, from the manifest the deploy left behind (it lists the deltas it wrote
    // and uploaded): the store then never names an object the bucket does not hold yet.
    const kvsPath = parsed['key-value-store']
    if (kvsPath !== undefined && !summary.dryRun) {
      const out = resolve(kvsPath)
      const data = cloudfrontKeyValueStore(await readManifest(resolve(settings.dir ?? 'dist')))
      await mkdir(dirname(out), { recursive: true })
      await writeFileAtomically(out, data)
      process.stderr.write(`wrote ${out}\n`)
    }
    if (json) {
      printJson({
        summary,
        plan: {
          uploads: plan.phases.flatMap((p) =>
            p.uploads.map((u) => ({ key: u.key, phase: p.phase, reason: u.reason, size: u.size })),
          ),
          skipped: plan.skipped.map((s) => s.key),
          deletions: plan.deletions,
          kept: plan.kept,
          leftOut: plan.leftOut,
        },
      })
      return
    }
    if (summary.dryRun) process.stdout.write(`${formatPlan(plan, summary.target)}\n`)
    if (summary.deltas) process.stdout.write(`${formatDeltaReport(summary.deltas)}\n`)
    process.stdout.write(`${formatSummary(summary)}\n`)
  },
})

/** CloudFront's KeyValueStore limits, checked before anything is uploaded. */
function checkKeyValueStore(site: Manifest): void {
  try {
    cloudfrontKeyValueStore(site)
  } catch (cause) {
    if (!isPreencodeError(cause) || !cause.isUserError) throw cause
    throw userError('deploy', `--key-value-store: ${cause.detail} Nothing was uploaded.`, { cause, code: 'BAD_INPUT' })
  }
}

/** One updating line on a terminal; nothing at all in CI, pipes or files. */
function createDeployProgress(stream: OutputStream & { columns?: number }): {
  update: (event: DeployEvent) => void
  done: () => void
} {
  const live = stream.isTTY === true && !process.env.CI
  let total = 0
  let done = 0
  let bytes = 0
  let shown = false
  return {
    update(event) {
      if (!live) return
      if (event.type === 'phase') total += event.uploads
      else if (event.type === 'upload') {
        done++
        bytes += event.bytes
      } else return
      const line = `deploy: ${done}/${total} objects, ${formatBytes(bytes)}${event.type === 'upload' ? ` — ${event.key}` : ''}`
      stream.write(`\r\x1b[2K${line.slice(0, (stream.columns ?? 100) - 1)}`)
      shown = true
    },
    done() {
      if (shown) stream.write('\r\x1b[2K')
    },
  }
}
