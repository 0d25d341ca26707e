// The real `preencode` binary: `deploy` with flags, the environment's credentials and a config
// file; `verify` exit codes. Secrets must appear in no output.
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { createServer as createTcpServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { runCollected, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBucket, listKeys, MINIO_SECRET, MINIO_USER, type Minio, makeSite, startMinio } from './helpers.js'

const BIN = join(import.meta.dirname, '../../cli/dist/bin.js')

async function preencode(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: '1', ...options.env }
  for (const key of ['AWS_PROFILE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'])
    if (!(key in (options.env ?? {}))) delete env[key]
  const run = await runCollected(process.execPath, [BIN, ...args], {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env,
  })
  return { code: run.code ?? -1, stdout: run.stdout, stderr: run.stderr }
}

describe.skipIf(!existsSync(BIN))('preencode deploy / verify (built CLI)', () => {
  let minio: Minio
  let site: Awaited<ReturnType<typeof makeSite>>
  let cwd: Awaited<ReturnType<typeof tempDir>>
  const env = () => ({ AWS_ACCESS_KEY_ID: MINIO_USER, AWS_SECRET_ACCESS_KEY: MINIO_SECRET, AWS_REGION: 'us-east-1' })
  beforeAll(async () => {
    minio = await startMinio()
    await createBucket(minio, 'cli')
    site = await makeSite(1)
    cwd = await tempDir('cli-cwd')
  })
  afterAll(async () => {
    await minio?.remove()
    await site?.remove()
    await cwd?.remove()
  })

  it('deploys to S3 with credentials from the environment; the rerun uploads nothing', async () => {
    const first = await preencode(
      ['deploy', site.root, '--to', 's3://cli/www', '--endpoint', minio.endpoint, '--delete'],
      { env: env() },
    )
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(
      /^s3:\/\/cli\/www\/ \(endpoint http:\/\/127\.0\.0\.1:\d+\): uploaded 24 objects .*skipped 0 unchanged, deleted 0; \d+ requests in/,
    )
    expect((await listKeys(minio, 'cli', 'www/')).length).toBe(25)
    const second = await preencode(['deploy', site.root, '--to', 's3://cli/www', '--endpoint', minio.endpoint], {
      env: env(),
    })
    expect(second.stdout).toMatch(/uploaded 0 objects .*skipped 24 unchanged.*2 requests/)
    for (const out of [first, second]) expect(out.stdout + out.stderr).not.toContain(MINIO_SECRET)
  })

  it('--dry-run --json prints the plan and writes nothing', async () => {
    const out = await preencode(
      ['deploy', site.root, '--to', 's3://cli/dry', '--endpoint', minio.endpoint, '--dry-run', '--json'],
      { env: env() },
    )
    expect(out.code).toBe(0)
    const parsed = JSON.parse(out.stdout) as {
      summary: { dryRun: boolean; uploaded: number }
      plan: { uploads: Array<{ key: string; phase: string }> }
    }
    expect(parsed.summary.dryRun).toBe(true)
    expect(parsed.plan.uploads.length).toBe(24)
    expect(parsed.plan.uploads.at(-1)!.phase).toBe('entry')
    expect(await listKeys(minio, 'cli', 'dry/')).toEqual([])
  })

  it('wrong credentials, a missing bucket, no credentials: exit 1, a clear line, no secret', async () => {
    const wrong = 'Zz-wrong-secret-Zz'
    const refused = await preencode(['deploy', site.root, '--to', 's3://cli/www', '--endpoint', minio.endpoint], {
      env: { ...env(), AWS_SECRET_ACCESS_KEY: wrong },
    })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      /^\[preencode\] \[deploy\] s3:\/\/cli\/www\/ \(endpoint .*\): listing the bucket failed: the credentials were refused \(SignatureDoesNotMatch\)/,
    )
    const missing = await preencode(['deploy', site.root, '--to', 's3://nope/www', '--endpoint', minio.endpoint], {
      env: env(),
    })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/s3:\/\/nope\/www\/ .*the bucket does not exist/)
    const none = await preencode(['deploy', site.root, '--to', 's3://cli/www', '--endpoint', minio.endpoint], {
      env: {
        AWS_REGION: 'us-east-1',
        AWS_CONFIG_FILE: '/nonexistent',
        AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
        AWS_EC2_METADATA_DISABLED: 'true',
      },
    })
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/no AWS credentials found/)
    for (const out of [refused, missing, none]) {
      expect(out.stdout + out.stderr).not.toContain(wrong)
      expect(out.stdout + out.stderr).not.toContain(MINIO_SECRET)
    }
  })

  it('without --to or a config file it stops and says how to name a target', async () => {
    const out = await preencode(['deploy', site.root], { cwd: cwd.path })
    expect(out.code).toBe(1)
    expect(out.stderr).toMatch(/No deploy target\. Pass --to/)
  })

  it('reads preencode.config.json, flags override it', async () => {
    await writeFile(
      join(cwd.path, 'preencode.config.json'),
      JSON.stringify({ deploy: { dir: site.root, to: './out', delete: true } }),
    )
    const out = await preencode(['deploy'], { cwd: cwd.path })
    expect(out.code).toBe(0)
    expect(out.stdout).toMatch(/local folder .*\/out: uploaded 24 objects/)
    const dry = await preencode(['deploy', '--to', './elsewhere', '--dry-run'], { cwd: cwd.path })
    expect(dry.stdout).toMatch(/Dry run: local folder .*\/elsewhere: would upload 24 objects/)
  })

  it('verify exits 0 on a correct server and 1 with a table on a broken one', async () => {
    const { readFile } = await import('node:fs/promises')
    const serve = (broken: boolean): Server =>
      createServer((req, res) => {
        void (async () => {
          let path = decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1))
          if (path === '' || path.endsWith('/')) path += 'index.html'
          const entry = site.manifest.files.find((f) => f.path === path)
          if (!entry) return res.writeHead(404).end()
          const ae = String(req.headers['accept-encoding'] ?? '')
          const variant = broken
            ? undefined
            : entry.variants.find((v) =>
                ae
                  .split(',')
                  .map((s) => s.trim())
                  .includes(v.encoding),
              )
          const body = await readFile(join(site.root, variant?.path ?? entry.path))
          const headers: Record<string, string> = { 'content-type': entry.contentType }
          if (variant) headers['content-encoding'] = variant.encoding
          if (entry.variants.length) headers.vary = 'Accept-Encoding'
          res.writeHead(200, headers).end(body)
        })()
      })
    for (const broken of [false, true]) {
      const server = serve(broken)
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      const port = (server.address() as { port: number }).port
      const out = await preencode(['verify', `http://127.0.0.1:${port}/`, site.root])
      server.close()
      if (broken) {
        expect(out.code).toBe(1)
        expect(out.stdout).toMatch(/^URL\s+Accept-Encoding/)
        expect(out.stdout).toMatch(/no Content-Encoding, expected br/)
        expect(out.stderr).toMatch(/\[preencode\] \[verify\] \d+ of \d+ checks failed/)
      } else {
        expect(out.stderr).toBe('')
        expect(out.code).toBe(0)
        expect(out.stdout).toMatch(/checks on 9 files passed/)
      }
    }
  })
})

describe.skipIf(!existsSync(BIN))('an S3 endpoint that accepts connections and never answers (built CLI)', () => {
  let site: Awaited<ReturnType<typeof makeSite>>
  const sockets: Socket[] = []
  let requests = 0
  // Takes every connection, reads every byte, answers nothing.
  const silent = createTcpServer((socket) => {
    sockets.push(socket)
    socket.on('data', (chunk: Buffer) => {
      if (/^(GET|PUT|POST|HEAD|DELETE) /.test(chunk.toString('latin1'))) requests++
    })
    socket.on('error', () => {})
  })
  let endpoint: string
  beforeAll(async () => {
    site = await makeSite(1)
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))
    endpoint = `http://127.0.0.1:${(silent.address() as { port: number }).port}`
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((r) => silent.close(r))
    await site?.remove()
  })

  it('deploy fails with one line naming the endpoint after the timeout and one retry, no secret', async () => {
    const out = await preencode(
      ['deploy', site.root, '--to', 's3://silent/www', '--endpoint', endpoint, '--timeout', '1'],
      {
        env: { AWS_ACCESS_KEY_ID: MINIO_USER, AWS_SECRET_ACCESS_KEY: MINIO_SECRET, AWS_REGION: 'us-east-1' },
      },
    )
    expect(out.code).toBe(1)
    expect(out.stderr).toMatch(
      new RegExp(
        `^\\[preencode\\] \\[deploy\\] s3://silent/www/ \\(endpoint ${endpoint}\\): listing the bucket failed: the endpoint accepted the connection but sent no answer for 1 s \\(2 tries\\)`,
      ),
    )
    expect(out.stderr.trim().split('\n')).toHaveLength(1)
    expect(out.stdout + out.stderr).not.toContain(MINIO_SECRET)
    // The first request and one retry, nothing more.
    expect(requests).toBe(2)
  })

  it('--timeout must be a number of seconds > 0, and applies to S3 only', async () => {
    const zero = await preencode([
      'deploy',
      site.root,
      '--to',
      's3://silent/www',
      '--endpoint',
      endpoint,
      '--timeout',
      '0',
    ])
    expect(zero.code).toBe(1)
    expect(zero.stderr).toMatch(/--timeout must be a number of seconds > 0; got 0\./)
    const folder = await preencode(['deploy', site.root, '--to', './out', '--timeout', '5'])
    expect(folder.code).toBe(1)
    expect(folder.stderr).toMatch(
      /--timeout does not apply to the local folder target \(\.\/out\); it applies to S3 targets only\./,
    )
  })
})
