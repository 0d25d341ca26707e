// `preencode deploy` with a flag its target does not take (issue 38.2): one line naming the flag
// and the target, from @preencode/deploy's target table, which also writes the help's "S3 only".
// The targets' own messages name the flag the user gave, or the config file's key (38.3).
import { spawnSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { freePort, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = join(import.meta.dirname, '../../dist/bin.js')

describe('preencode deploy: the settings each target takes', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    dir = await tempDir('deploy-target-settings')
    await mkdir(join(dir.path, 'site'))
    await writeFile(join(dir.path, 'site/index.html'), `<!doctype html><title>t</title>${'<p>hello</p>'.repeat(200)}`)
    compress(join(dir.path, 'site'))
  })
  afterAll(async () => {
    await dir.remove()
  })
  /** A compressed site in `cwd`, as deploy reads it. */
  const compress = (cwd: string) =>
    expect(
      spawnSync(process.execPath, [BIN, 'compress', '.', '--quiet', '--no-cache'], { cwd, encoding: 'utf8' }).status,
    ).toBe(0)
  /** The command run in `cwd` (the site's folder by default). */
  const run = (args: string[], cwd = join(dir.path, 'site'), env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [BIN, 'deploy', ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, CI: '1', ...env },
    })

  it.each([
    [
      ['--to', './out', '--endpoint', 'http://127.0.0.1:9000'],
      '--endpoint does not apply to the local folder target (./out); it applies to S3 targets only.',
    ],
    [
      ['--to', 'deploy@example.com:/srv/www', '--region', 'eu-west-1'],
      '--region does not apply to the rsync target (deploy@example.com:/srv/www); it applies to S3 targets only.',
    ],
    [
      ['--to', 's3://bucket/www', '--release'],
      '--release does not apply to the S3 target (s3://bucket/www): S3 objects are replaced in the safe order instead; it applies to rsync targets only.',
    ],
  ])('%j: one line naming the flag and the target', (args, line) => {
    const refused = run(['.', ...args])
    expect(refused.status).toBe(1)
    expect(refused.stderr.trim()).toBe(`[preencode] [options] ${line}`)
  })

  it('the help says which targets take a flag, from the table', () => {
    const help = spawnSync(process.execPath, [BIN, 'deploy', '--help'], { encoding: 'utf8' }).stdout
    expect(help).toMatch(/--endpoint=<url>\s+S3 only: /)
    expect(help).toMatch(/--timeout=<seconds>\s+S3 only: /)
    expect(help).toMatch(/--release\s+rsync only /)
  })

  it('a missing parent folder names --to when the flag set it, the file key when the file did', async () => {
    const missing = '/nonexistent-preencode-parent/out'
    const byFlag = run(['.', '--to', missing])
    expect(byFlag.status).toBe(1)
    expect(byFlag.stderr).toMatch(/does not exist\. Create it first, or check --to\.$/m)
    const cwd = join(dir.path, 'with-config')
    await mkdir(cwd)
    await writeFile(join(cwd, 'index.html'), '<!doctype html><title>t</title>')
    compress(cwd)
    await writeFile(join(cwd, 'preencode.config.json'), JSON.stringify({ deploy: { to: missing } }))
    const byFile = run(['.'], cwd)
    expect(byFile.status).toBe(1)
    expect(byFile.stderr).toContain(`check \`deploy.to\` in ${join(cwd, 'preencode.config.json')}.`)
  })

  it('an S3 endpoint that refuses connections: the message names --endpoint, as the user set it', async () => {
    const port = await freePort()
    const credentials = { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test-secret' }
    const refused = run(
      ['.', '--to', 's3://bucket/www', '--endpoint', `http://127.0.0.1:${port}`],
      undefined,
      credentials,
    )
    expect(refused.status).toBe(1)
    expect(refused.stderr.trim().split('\n').at(-1)).toMatch(
      /cannot reach the endpoint \(ECONNREFUSED\)\. Check --endpoint and that the server is running\./,
    )
  })
})
