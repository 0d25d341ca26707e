// The config file `preencode deploy` (and `compress`) reads: found in the working directory,
// validated with messages naming the file and the key.
import { spawnSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { resolveDeploySettings } from '@preencode/deploy'
import { tempDir } from '@preencode/test-utils'
import { defineConfig } from 'preencode'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileLabel, loadConfig } from '../../src/options/config-file.js'

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
    const settings = resolveDeploySettings(loaded?.config.deploy, fileLabel(loaded!.path, 'deploy'))
    expect(settings).toEqual({ to: './public', concurrency: 2 })
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

  it('refuses prototype keys by name, at any depth, in JSON and in JS', async () => {
    const cases: [string, string, string][] = [
      ['json-proto', '{"compress":{"__proto__":{"formats":["gzip"]}}}', 'compress.__proto__'],
      ['json-top', '{"__proto__":{"compress":{"formats":["gzip"]}}}', '__proto__'],
      ['json-deep', '{"compress":{"budgets":[{"path":"*.js","constructor":{}}]}}', 'compress.budgets[0].constructor'],
    ]
    for (const [name, text, key] of cases) {
      const cwd = join(dir.path, name)
      await mkdir(cwd, { recursive: true })
      await writeFile(join(cwd, 'preencode.config.json'), text)
      await expect(loadConfig(cwd), name).rejects.toThrow(
        `\`${key}\` in ${join(cwd, 'preencode.config.json')} is not a setting`,
      )
    }
    const cwd = join(dir.path, 'js-proto')
    await mkdir(cwd, { recursive: true })
    await writeFile(
      join(cwd, 'preencode.config.mjs'),
      "export default { compress: { __proto__: { formats: ['gzip'] } } }\n",
    )
    await expect(loadConfig(cwd)).rejects.toThrow('`compress.__proto__` in')
  })

  it('refuses a top-level key that is no section, naming the section it belongs in', async () => {
    const cwd = join(dir.path, 'misplaced')
    await mkdir(cwd, { recursive: true })
    const file = join(cwd, 'preencode.config.json')
    await writeFile(file, JSON.stringify({ formats: ['gzip'], compress: {} }))
    await expect(loadConfig(cwd)).rejects.toThrow(
      `\`formats\` in ${file} is a setting of \`compress\`, not a section: move it into "compress": { … }.`,
    )
    await writeFile(file, JSON.stringify({ timeout: 5 }))
    await expect(loadConfig(cwd)).rejects.toThrow(`\`timeout\` in ${file} is a setting of \`deploy\` or \`verify\``)
    await writeFile(file, JSON.stringify({ serve: { port: 1 } }))
    await expect(loadConfig(cwd)).rejects.toThrow(
      `\`serve\` in ${file} is unknown; the file's sections are compress, deploy, verify.`,
    )
    await writeFile(file, JSON.stringify({ compress: { formats: ['gzip'] }, deploy: { to: './out' }, verify: {} }))
    expect((await loadConfig(cwd))?.config.compress).toEqual({ formats: ['gzip'] })
  })
})

describe('deploy settings: the file names its key, a flag names the flag', () => {
  const BIN = join(import.meta.dirname, '../../dist/bin.js')
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    dir = await tempDir('deploy-settings')
  })
  afterAll(async () => {
    await dir.remove()
  })
  const run = (args: string[], cwd = process.cwd()) =>
    spawnSync(process.execPath, [BIN, 'deploy', ...args], { cwd, encoding: 'utf8', env: { ...process.env, CI: '1' } })
  /** A folder whose preencode.config.json has this deploy section. */
  async function withConfig(name: string, deploy: object): Promise<string> {
    const cwd = join(dir.path, name)
    await mkdir(cwd, { recursive: true })
    await writeFile(join(cwd, 'preencode.config.json'), JSON.stringify({ deploy }))
    return cwd
  }

  it('checks --concurrency and --keep by the same rule as the config file, naming the flag', () => {
    const concurrency = run(['.', '--to', './nowhere', '--concurrency', '0'])
    expect(concurrency.status).toBe(1)
    expect(concurrency.stderr).toContain('--concurrency must be a whole number >= 1; got 0.')
    const keep = run(['.', '--to', './nowhere', '--release', '--keep', '0'])
    expect(keep.status).toBe(1)
    expect(keep.stderr).toContain('--keep (releases kept) must be a whole number >= 1; got 0.')
  })

  it('a bad value from the file names the file and its key, never a flag', async () => {
    const cwd = await withConfig('from-file', { to: './out', timeout: 5, concurrency: 2 })
    const file = join(cwd, 'preencode.config.json')
    const timeout = run(['.'], cwd)
    expect(timeout.status).toBe(1)
    expect(timeout.stderr.trim()).toBe(
      `[preencode] [options] \`deploy.timeout\` in ${file} does not apply to the local folder target (./out); it applies to S3 targets only.`,
    )
    const endpoint = run(['.'], await withConfig('endpoint', { to: 's3://b', endpoint: 'minio:9000' }))
    expect(endpoint.status).toBe(1)
    expect(endpoint.stderr).toMatch(
      /`deploy\.endpoint` in \S+preencode\.config\.json is `minio:9000`, not an http\(s\) URL/,
    )
    expect(endpoint.stderr).not.toContain('--endpoint')
    const release = run(['.'], await withConfig('release', { to: 's3://b', release: true }))
    expect(release.stderr).toMatch(
      /`deploy\.release` in \S+ does not apply to the S3 target \(s3:\/\/b\): S3 objects are replaced in the safe order instead; it applies to rsync targets only\./,
    )
    const zero = run(['.'], await withConfig('zero', { to: 's3://b', timeout: 0 }))
    expect(zero.stderr).toMatch(/`deploy\.timeout` in \S+ must be a number of seconds > 0; got 0\./)
  })

  it('the same mistake made with a flag names the flag, whatever the file holds', async () => {
    const cwd = await withConfig('from-flag', { to: './out', concurrency: 2 })
    const timeout = run(['.', '--timeout', '5'], cwd)
    expect(timeout.status).toBe(1)
    expect(timeout.stderr.trim()).toBe(
      '[preencode] [options] --timeout does not apply to the local folder target (./out); it applies to S3 targets only.',
    )
    const zero = run(['.', '--to', 's3://b', '--timeout', '0'], cwd)
    expect(zero.stderr.trim()).toBe('[preencode] [options] --timeout must be a number of seconds > 0; got 0.')
    const words = run(['.', '--to', 's3://b', '--timeout', 'soon'], cwd)
    expect(words.stderr.trim()).toBe('[preencode] [options] --timeout must be a number of seconds > 0; got "soon".')
  })
})
