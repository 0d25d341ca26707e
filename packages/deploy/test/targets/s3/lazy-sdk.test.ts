// The AWS SDK is loaded only for s3:// targets: a deploy to a folder, through the real CLI,
// resolves no @aws-sdk module. A module hook in the child process records every resolution.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeSite } from '../../helpers.js'

const BIN = join(import.meta.dirname, '../../../../cli/dist/bin.js')
const DEPLOY_DIST = pathToFileURL(join(import.meta.dirname, '../../../dist/index.js')).href

const HOOK = `
import { registerHooks } from 'node:module'
import { writeSync } from 'node:fs'
const seen = new Set()
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context)
    if (result.url.includes('/@aws-sdk/')) seen.add(result.url.replace(/^.*\\/@aws-sdk\\/([^/]+).*$/, '$1'))
    return result
  },
})
process.on('exit', () => writeSync(2, 'aws-sdk packages: ' + JSON.stringify([...seen]) + '\\n'))
`

function sdkPackages(stderr: string): string[] {
  const line = stderr.split('\n').find((l) => l.startsWith('aws-sdk packages: '))
  expect(line, stderr).toBeDefined()
  return JSON.parse(line!.slice('aws-sdk packages: '.length)) as string[]
}

describe.skipIf(!existsSync(BIN))('the S3 SDK is loaded lazily', () => {
  let work: Awaited<ReturnType<typeof tempDir>>
  let site: Awaited<ReturnType<typeof makeSite>>
  let hook: string
  beforeAll(async () => {
    work = await tempDir('lazy-sdk')
    site = await makeSite(1)
    hook = join(work.path, 'hook.mjs')
    await writeFile(hook, HOOK)
  })
  afterAll(async () => {
    await site?.remove()
    await work?.remove()
  })

  it('`preencode deploy --to ./folder` loads no @aws-sdk module', async () => {
    const out = join(work.path, 'out')
    const run = spawnSync(
      process.execPath,
      ['--import', pathToFileURL(hook).href, BIN, 'deploy', site.root, '--to', out],
      { encoding: 'utf8', env: { ...process.env, CI: '1' } },
    )
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/local folder .*: uploaded \d+ objects/)
    expect((await readdir(out)).length).toBeGreaterThan(0)
    expect(sdkPackages(run.stderr)).toEqual([])
  })

  it('an s3:// target does load it (the hook sees SDK modules when they load)', () => {
    const script = `const { createTarget } = await import(${JSON.stringify(DEPLOY_DIST)}); await createTarget('s3://bucket/site')`
    const run = spawnSync(
      process.execPath,
      ['--import', pathToFileURL(hook).href, '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    )
    expect(run.status, run.stderr).toBe(0)
    expect(sdkPackages(run.stderr)).toContain('client-s3')
  })
})
