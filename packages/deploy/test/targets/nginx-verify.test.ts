// The issue's end-to-end check for folder targets: a site rsync-deployed into a folder, served by
// the generated nginx config (stock flavour) on loopback, passes verifySite; the same folder
// served with nginx's on-the-fly gzip and no variants handling fails it.
import { join } from 'node:path'
import { deploy, rsyncTarget } from '@preencode/deploy'
import { nginxConfig, type VerifyResult, verifySite } from '@preencode/server-config'
import { hasTool, nginxMainConfig, type StartedServer, startNginx, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeSite } from '../helpers.js'

const problemsOf = (result: VerifyResult): string =>
  result.failures.map((f) => `${f.path} [${f.acceptEncoding ?? '(none)'}]: ${f.problems.join('; ')}`).join('\n')

async function startSite(dir: string, serverBlock: string): Promise<{ url: string; proc: StartedServer }> {
  const proc = await startNginx(
    (port, root) =>
      nginxMainConfig(root, {
        // Workers read the deploy folder, a private temp dir: as root, they run as root.
        ...(process.getuid?.() === 0 ? { user: 'root' } : {}),
        accessLog: 'off',
        // As most sites have it: text types without variants get their charset from nginx itself.
        http: `  charset utf-8; charset_types text/plain text/css text/xml application/json;\n${serverBlock.replaceAll('__LISTEN__', `127.0.0.1:${port}`)}`,
      }),
    { dir },
  )
  return { url: `${proc.url}/`, proc }
}

describe.skipIf(!hasTool('nginx'))('rsync-deployed folder behind nginx', () => {
  let site: Awaited<ReturnType<typeof makeSite>>
  let served: Awaited<ReturnType<typeof tempDir>>
  let conf: Awaited<ReturnType<typeof tempDir>>
  const procs: StartedServer[] = []
  beforeAll(async () => {
    site = await makeSite(1)
    served = await tempDir('nginx-root')
    conf = await tempDir('nginx-conf')
    await deploy({ dir: site.root, target: rsyncTarget(served.path), delete: true })
  })
  afterAll(async () => {
    for (const p of procs) await p.stop()
    await Promise.all([site?.remove(), served?.remove(), conf?.remove()])
  })

  it('passes verify with the generated nginx config', async () => {
    const { url, proc } = await startSite(
      join(conf.path, 'good'),
      nginxConfig(site.manifest, { root: served.path, listen: '__LISTEN__' }),
    )
    procs.push(proc)
    const result = await verifySite(url, site.manifest, site.root)
    expect(result.failures, problemsOf(result)).toEqual([])
  })

  it('fails verify when nginx compresses on the fly instead', async () => {
    const block = `server { listen __LISTEN__; root ${served.path}; gzip on; gzip_types *; gzip_min_length 0; gzip_vary on; }\n`
    const { url, proc } = await startSite(join(conf.path, 'bad'), block)
    procs.push(proc)
    const result = await verifySite(url, site.manifest, site.root)
    expect(result.failures.length).toBeGreaterThan(0)
    expect(problemsOf(result)).toMatch(/no Content-Encoding, expected br/)
  })
})
