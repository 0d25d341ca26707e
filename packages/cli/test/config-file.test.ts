// The config file `preencode deploy` (and `compress`) reads: found in the working directory,
// validated with messages naming the file and the key.
import { spawnSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from '@preencode/test-utils'
import { defineConfig } from 'preencode'
import { loadConfig, validateDeployConfig } from '../src/config-file.js'

describe('config validation', () => {
  it('names the bad key and the file', () => {
    expect(validateDeployConfig({ to: 's3://b', concurrency: 4, keep: { deploys: 2 } }, 'x.json')).toEqual({
      to: 's3://b',
      concurrency: 4,
      keep: { deploys: 2 },
    })
    expect(() => validateDeployConfig({ concurency: 3 }, 'x.json')).toThrow(
      /x\.json: unknown deploy option "concurency"/,
    )
    expect(() => validateDeployConfig({ concurrency: 0 }, 'x.json')).toThrow(
      /deploy\.concurrency must be a whole number >= 1; got 0/,
    )
    expect(() => validateDeployConfig({ delete: 'yes' }, 'x.json')).toThrow(/deploy\.delete must be a boolean/)
    expect(() => validateDeployConfig({ keep: { days: 1 } }, 'x.json')).toThrow(/deploy\.keep\.days is unknown/)
  })
})

describe('loadConfig', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    dir = await tempDir('config-file')
  })
  afterAll(async () => {
    await dir.remove()
  })

  it('loads preencode.config.mjs written with defineConfig from the preencode package', async () => {
    const cwd = join(dir.path, 'mjs')
    await mkdir(cwd, { recursive: true })
    await writeFile(
      join(cwd, 'preencode.config.mjs'),
      "export default { deploy: { to: './public', concurrency: 2 } }\n",
    )
    const loaded = await loadConfig(cwd)
    expect(loaded?.path).toBe(join(cwd, 'preencode.config.mjs'))
    expect(validateDeployConfig(loaded?.config.deploy, loaded!.path)).toEqual({ to: './public', concurrency: 2 })
    // defineConfig only gives the file its types.
    const config = { deploy: { to: 's3://b' } }
    expect(defineConfig(config)).toBe(config)
  })

  it('names the file when its JSON is broken, and finds nothing without one', async () => {
    const cwd = join(dir.path, 'json')
    await mkdir(cwd, { recursive: true })
    expect(await loadConfig(cwd)).toBeUndefined()
    await writeFile(join(cwd, 'preencode.config.json'), '{ "deploy": ')
    await expect(loadConfig(cwd)).rejects.toThrow(/preencode\.config\.json is not valid JSON/)
  })
})

describe('deploy flags', () => {
  const BIN = join(import.meta.dirname, '../dist/bin.js')
  const run = (args: string[]) =>
    spawnSync(process.execPath, [BIN, 'deploy', ...args], { encoding: 'utf8', env: { ...process.env, CI: '1' } })

  it('checks --concurrency and --keep by the same rule as the config file, naming the flag', () => {
    const concurrency = run(['.', '--to', './nowhere', '--concurrency', '0'])
    expect(concurrency.status).toBe(1)
    expect(concurrency.stderr).toContain('--concurrency must be a whole number >= 1; got 0.')
    const keep = run(['.', '--to', './nowhere', '--release', '--keep', '0'])
    expect(keep.status).toBe(1)
    expect(keep.stderr).toContain('--keep (releases kept) must be a whole number >= 1; got 0.')
  })
})
