// The one start-up for real servers: each starts on a free 127.0.0.1 port in a temp root, serves
// a file, stops and leaves nothing behind; a config the server rejects fails the start with the
// server's own words; Varnish reports its counters; MinIO comes back on the same port and data after a crash.
import { existsSync } from 'node:fs'
import { chmod, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  apacheMainConfig,
  CADDY_GLOBAL_OPTIONS,
  checkServer,
  hasTool,
  nginxCommand,
  nginxMainConfig,
  type StartedServer,
  startApache,
  startCaddy,
  startMinio,
  startNginx,
  startVarnish,
  tempDir,
} from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BODY = 'served by the shared start-up\n'
let site: Awaited<ReturnType<typeof tempDir>>

beforeAll(async () => {
  site = await tempDir('servers-site')
  await writeFile(join(site.path, 'index.html'), BODY)
  // Workers started by root run as www-data or nobody.
  await chmod(site.path, 0o755)
  await chmod(join(site.path, 'index.html'), 0o644)
})
afterAll(async () => {
  await site?.remove()
})

async function expectServes(server: StartedServer): Promise<void> {
  try {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`)
    const response = await fetch(`${server.url}/index.html`)
    expect(response.status, server.logs()).toBe(200)
    expect(await response.text()).toBe(BODY)
  } finally {
    await server.stop()
  }
  expect(existsSync(server.root.path)).toBe(false)
  await expect(fetch(`${server.url}/index.html`)).rejects.toThrow()
}

describe.skipIf(!hasTool('nginx'))('nginx', () => {
  it('starts in a temp root, serves, stops and removes the root', async () => {
    const server = await startNginx((port, root) =>
      nginxMainConfig(root, { http: `server { listen 127.0.0.1:${port}; root ${site.path}; }` }),
    )
    await expectServes(server)
  })

  it('a config nginx rejects fails the start with its message; -t says the same', async () => {
    const dir = await tempDir('nginx-bad')
    try {
      await expect(
        startNginx((_, root) => nginxMainConfig(root, { http: 'no_such_directive on;' }), { dir: dir.path }),
      ).rejects.toThrow(/unknown directive "no_such_directive"/)
      const check = checkServer(nginxCommand(dir.path))
      expect(check.status).not.toBe(0)
      expect(check.output).toMatch(/unknown directive "no_such_directive"/)
    } finally {
      await dir.remove()
    }
  })
})

describe.skipIf(!hasTool('apache2'))('Apache', () => {
  it('starts in a temp root, serves, stops and removes the root', async () => {
    const server = await startApache((port, root) =>
      apacheMainConfig(root, {
        port,
        modules: ['mpm_event', 'authz_core', 'dir', 'mime'],
        body: `DocumentRoot "${site.path}"\n<Directory "${site.path}">\n  Require all granted\n</Directory>`,
      }),
    )
    await expectServes(server)
  })
})

describe.skipIf(!hasTool('caddy'))('Caddy', () => {
  it('starts in a temp root, serves, stops and removes the root', async () => {
    expect(CADDY_GLOBAL_OPTIONS).toContain('admin off')
    const server = await startCaddy((port) => `http://127.0.0.1:${port} {\n\troot * ${site.path}\n\tfile_server\n}\n`)
    await expectServes(server)
  })
})

describe.skipIf(!hasTool('varnishd') || !hasTool('nginx'))('Varnish', () => {
  it('starts in front of an origin, serves it, reports its counters, stops and removes the root', async () => {
    const origin = await startNginx((port, root) =>
      nginxMainConfig(root, { http: `server { listen 127.0.0.1:${port}; root ${site.path}; }` }),
    )
    try {
      const vcl = `vcl 4.1;\nbackend default { .host = "127.0.0.1"; .port = "${origin.port}"; }\n`
      const varnish = await startVarnish(vcl)
      // varnishstat reads the instance in the root (its counters are flushed lazily: only their presence is certain).
      expect(varnish.counters(), varnish.logs()).toHaveProperty(['MAIN.n_backend'], 1)
      await expectServes(varnish)
    } finally {
      await origin.stop()
    }
  })

  it('a VCL varnishd rejects fails the start with its message', async () => {
    await expect(
      startVarnish('vcl 4.1;\nbackend default { .host = "127.0.0.1"; .port = "1"; }\nsub vcl_recv { nonsense; }\n'),
    ).rejects.toThrow(/nonsense/)
  })
})

describe.skipIf(!hasTool('minio'))('MinIO', () => {
  it('is ready on its port, comes back on the same port and data after SIGKILL, and is removed', async () => {
    const minio = await startMinio()
    try {
      const health = () => fetch(`${minio.endpoint}/minio/health/ready`).then((r) => r.status)
      expect(await health()).toBe(200)
      minio.kill()
      await new Promise<void>((done) => minio.process.child.once('exit', () => done()))
      await expect(health()).rejects.toThrow()
      await minio.restart()
      expect(await health()).toBe(200)
      expect(existsSync(minio.dataDir)).toBe(true)
    } finally {
      await minio.remove()
    }
    expect(existsSync(minio.dataDir)).toBe(false)
  })
})
