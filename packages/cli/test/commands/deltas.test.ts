// `preencode compress` writes RFC 9842 deltas against a deployed folder (a fresh runner with no
// cache at all), through the real binary; --no-deltas leaves none; bad flags fail naming them.
import { spawnSync } from 'node:child_process'
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { decodeWithDictionary, readManifest } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterEach, describe, expect, it } from 'vitest'

const BIN = resolve(import.meta.dirname, '../../dist/bin.js')

function cli(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: '', XDG_CACHE_HOME: join(cwd, 'user-cache') },
  })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

const V1 = Array.from(
  { length: 3000 },
  (_, i) => `export function f${i}(x) { return x * ${i % 17} + "${(i * 7919) % 1000}" }\n`,
).join('')
const V2 = V1.replace('function f100(', 'function edited100(')

describe('preencode compress: delta updates', () => {
  it('makes deltas against a deployed folder on a runner without cache, and --no-deltas makes none', async () => {
    const tmp = await tempDir('cli-deltas')
    cleanups.push(tmp.remove)
    const site = join(tmp.path, 'site')
    const www = join(tmp.path, 'www')
    await mkdir(join(site, 'assets'), { recursive: true })
    await writeFile(join(site, 'assets/app-Ab12Cd34.js'), V1)
    await writeFile(
      join(site, 'index.html'),
      `<!doctype html><script type="module" src="/assets/app-Ab12Cd34.js"></script>${'<p>x</p>'.repeat(300)}`,
    )
    expect(cli(['compress', 'site', '--no-cache'], tmp.path).status).toBe(0)
    await cp(site, www, { recursive: true })

    await rm(site, { recursive: true })
    await mkdir(join(site, 'assets'), { recursive: true })
    await writeFile(join(site, 'assets/app-Ef56Gh78.js'), V2)
    await writeFile(
      join(site, 'index.html'),
      `<!doctype html><script type="module" src="/assets/app-Ef56Gh78.js"></script>${'<p>x</p>'.repeat(300)}`,
    )
    const run = cli(['compress', 'site', '--no-cache', '--previous', 'www'], tmp.path)
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/dictionary transport: 1 changed files as deltas: .* brotli -> \d+ B/)
    const manifest = await readManifest(site)
    const app = manifest.files.find((f) => f.path === 'assets/app-Ef56Gh78.js')!
    expect(app.useAsDictionary).toBe('app-*.js')
    expect(app.deltas).toHaveLength(2)
    for (const delta of app.deltas!) {
      expect(
        (
          await decodeWithDictionary(delta.encoding, await readFile(join(site, delta.path)), Buffer.from(V1))
        ).toString(),
      ).toBe(V2)
    }

    const json = cli(
      ['compress', 'site', '--no-cache', '--previous', 'www', '--json', '--delta-encodings', 'dcz'],
      tmp.path,
    )
    const report = JSON.parse(json.stdout) as {
      deltas: { files: { encoding: string; deltaBytes: number; brotliBytes: number }[] }
    }
    expect(report.deltas.files).toHaveLength(1)
    expect(report.deltas.files[0]!.encoding).toBe('dcz')
    expect(report.deltas.files[0]!.deltaBytes).toBeLessThan(report.deltas.files[0]!.brotliBytes * 0.05)

    expect(cli(['compress', 'site', '--no-cache', '--no-deltas'], tmp.path).status).toBe(0)
    const plain = await readManifest(site)
    expect(plain.files.some((f) => f.deltas !== undefined || f.useAsDictionary !== undefined)).toBe(false)
    expect(await readFile(join(site, app.deltas![0]!.path)).catch(() => 'gone')).toBe('gone')
  })

  it('rejects bad delta flags naming them', async () => {
    const tmp = await tempDir('cli-deltas-bad')
    cleanups.push(tmp.remove)
    await mkdir(join(tmp.path, 'site'))
    await writeFile(join(tmp.path, 'site/index.html'), '<!doctype html>')
    const versions = cli(['compress', 'site', '--delta-versions', '0'], tmp.path)
    expect(versions.status).not.toBe(0)
    expect(versions.stderr).toMatch(/--delta-versions is 0/)
    const encodings = cli(['compress', 'site', '--delta-encodings', 'br'], tmp.path)
    expect(encodings.stderr).toMatch(/--delta-encodings is \["br"\]; it accepts a non-empty list of dcb, dcz/)
  })

  it('preencode deploy makes the deltas against what the target holds; --no-deltas ships the site as built', async () => {
    const tmp = await tempDir('cli-deploy-deltas')
    cleanups.push(tmp.remove)
    const site = join(tmp.path, 'site')
    const www = join(tmp.path, 'www')
    const write = async (name: string, body: string): Promise<void> => {
      await rm(site, { recursive: true, force: true })
      await mkdir(join(site, 'assets'), { recursive: true })
      await writeFile(join(site, `assets/${name}`), body)
      await writeFile(join(site, 'index.html'), `<!doctype html><script type="module" src="/assets/${name}"></script>`)
      // No cache and no --previous: as on a fresh runner, the build alone cannot write deltas.
      expect(cli(['compress', 'site', '--no-cache'], tmp.path).status).toBe(0)
    }
    await write('app-Ab12Cd34.js', V1)
    expect(cli(['deploy', 'site', '--to', 'www'], tmp.path).status).toBe(0)
    await write('app-Ef56Gh78.js', V2)
    expect((await readManifest(site)).files.some((f) => f.deltas)).toBe(false)

    await cp(www, join(tmp.path, 'www-plain'), { recursive: true })
    const plain = cli(['deploy', 'site', '--to', 'www-plain', '--no-deltas'], tmp.path)
    expect(plain.status, plain.stderr).toBe(0)
    expect(plain.stdout).not.toMatch(/dictionary transport/)
    expect(await readdir(join(tmp.path, 'www-plain', 'assets'))).not.toContain('app-Ef56Gh78.js.dict')

    const run = cli(['deploy', 'site', '--to', 'www'], tmp.path)
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/dictionary transport: 1 changed files as deltas: .* brotli -> \d+ B/)
    const app = (await readManifest(site)).files.find((f) => f.path === 'assets/app-Ef56Gh78.js')!
    expect(app.deltas).toHaveLength(2)
    for (const delta of app.deltas!) {
      const body = await readFile(join(www, delta.path))
      expect((await decodeWithDictionary(delta.encoding, body, Buffer.from(V1))).toString()).toBe(V2)
    }
    const bad = cli(['deploy', 'site', '--to', 'www', '--delta-versions', '0'], tmp.path)
    expect(bad.status).not.toBe(0)
    expect(bad.stderr).toMatch(/--delta-versions is 0; it must be a whole number from 1 to 20/)
  })
})
