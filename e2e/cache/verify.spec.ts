// `preencode verify --cache` against Varnish in front of the generated nginx config, serving the
// delta app (two builds, so it has deltas): with the generated VCL every check passes; with
// each planted fault (e2e/cache/varnish.ts BROKEN_VCLS) the fault is named in one line.
import { spawnSync } from 'node:child_process'
import { chmod } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Manifest } from '@preencode/core'
import { verifySite } from '@preencode/server-config'
import { freePort, REPO_ROOT, tempDir } from '@preencode/test-utils'
import { buildApp, writeAppSources } from '../dictionary/app.ts'
import { type ServingProcess, startServerOnPort } from '../harness/servers.ts'
import { BROKEN_VCLS, generatedVcl, startVarnish } from './varnish.ts'

let work: { path: string; remove: () => Promise<void> }
let www: string
let manifest: Manifest
let originPort: number
let origin: ServingProcess

test.beforeAll(async () => {
  work = await tempDir('e2e-cache-verify')
  await chmod(work.path, 0o755)
  const app = join(work.path, 'app')
  www = join(work.path, 'www')
  await writeAppSources(app, 'v1')
  await buildApp(app, www, join(work.path, 'cache'))
  await writeAppSources(app, 'v2')
  manifest = await buildApp(app, www, join(work.path, 'cache'))
  originPort = await freePort()
  origin = await startServerOnPort('nginx-stock', www, originPort, join(work.path, 'nginx'))
})
test.afterAll(async () => {
  await origin?.stop()
  await work?.remove()
})

/** The first words of the lines verify --cache adds. */
const CACHE_KINDS = ['strips', 'coding stored for another request', 'delta not served', 'no Vary']

const problems = (result: Awaited<ReturnType<typeof verifySite>>): string[] =>
  result.failures.flatMap((c) => c.problems.map((p) => `${c.url} [${c.acceptEncoding ?? '-'}] ${p}`))

test('the generated VCL passes verify --cache (the CLI, exit 0)', async () => {
  expect(manifest.files.some((f) => f.deltas && f.deltas.length > 0)).toBe(true)
  const varnish = await startVarnish(generatedVcl(manifest, originPort))
  try {
    const result = await verifySite(varnish.url, manifest, www, { cache: true })
    expect(problems(result)).toEqual([])
    // The cache sequences ran: three requests per delta, five or more per file with variants.
    expect(result.checks.filter((c) => c.url.includes('preencode-verify=')).length).toBeGreaterThan(10)
    const cli = spawnSync(
      process.execPath,
      [join(REPO_ROOT, 'packages/cli/dist/bin.js'), 'verify', `${varnish.url}/`, www, '--cache'],
      { encoding: 'utf8' },
    )
    expect(cli.status, `${cli.stdout}${cli.stderr}`).toBe(0)
  } finally {
    await varnish.stop()
  }
})

for (const [name, fault] of Object.entries(BROKEN_VCLS))
  test(`a VCL with a planted fault (${name}) is named`, async () => {
    const vcl = fault.plant(generatedVcl(manifest, originPort))
    expect(vcl).not.toBe(generatedVcl(manifest, originPort))
    const varnish = await startVarnish(vcl)
    try {
      const result = await verifySite(varnish.url, manifest, www, { cache: true })
      const found = problems(result)
      const kinds = [...new Set(found.flatMap((p) => CACHE_KINDS.filter((k) => p.includes(`] ${k}`))))]
      test.info().annotations.push({ type: name, description: kinds.join(', ') })
      expect(kinds.sort(), found.join('\n')).toEqual([...fault.kinds].sort())
    } finally {
      await varnish.stop()
    }
  })
