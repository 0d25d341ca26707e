// The pure parts: planning, the deploy state's grace period, rsync argument building and parsing,
// target URLs, config validation, error mapping.

import type { Manifest, ManifestFile } from '@preencode/core'
import { runPool } from '@preencode/core/internal'
import { createTarget, type DeployState, planDeploy, type RemoteObject, resolveDeploySettings } from '@preencode/deploy'
import { describe, expect, it } from 'vitest'
import { plannedUploads } from '../../src/plan/plan.js'
import { nextDeployState, protectedKeys } from '../../src/plan/state.js'
import { parseRsyncDestination } from '../../src/targets/rsync/command.js'
import { isRetryableS3Error, redact } from '../../src/targets/s3/errors.js'
// Internals, tested directly.
import { withRetry } from '../../src/targets/s3/retry.js'

function file(
  path: string,
  cacheClass: ManifestFile['cacheClass'],
  sha = 'a',
  variants: Array<'br' | 'gzip'> = ['br', 'gzip'],
): ManifestFile {
  return {
    path,
    size: 100,
    sha256: `${sha}-${path}`,
    mtimeMs: 1_700_000_000_000,
    contentType: 'text/plain; charset=utf-8',
    cacheClass,
    cacheControl: cacheClass === 'html' ? 'no-cache' : 'public, max-age=3600',
    originalOnDisk: true,
    variants: variants.map((e) => ({
      format: e === 'br' ? 'brotli' : 'gzip',
      encoding: e,
      path: `${path}.${e === 'br' ? 'br' : 'gz'}`,
      size: 50,
      sha256: `${sha}-${path}-${e}`,
    })),
  }
}

const manifest: Manifest = {
  version: 1,
  generator: 'test',
  formats: ['gzip', 'brotli'],
  files: [
    file('index.html', 'html'),
    file('assets/app-Ab1Cd34E.js', 'immutable'),
    file('favicon.ico', 'default', 'a', []),
    file('sw.js', 'default'),
    file('.preencode-manifest.json', 'default', 'a', []),
  ],
}

const remoteOf = (entries: Record<string, string | undefined>): Map<string, RemoteObject> =>
  new Map(Object.entries(entries).map(([k, sha256]) => [k, { sha256 }]))

describe('planDeploy', () => {
  it('orders immutable assets, other files, then HTML and entry points; variants before originals', () => {
    const plan = planDeploy(manifest, { objects: new Map() })
    expect(plan.phases.map((p) => [p.phase, p.uploads.map((u) => u.key)])).toEqual([
      ['immutable', ['assets/app-Ab1Cd34E.js.br', 'assets/app-Ab1Cd34E.js.gz', 'assets/app-Ab1Cd34E.js']],
      ['asset', ['favicon.ico']],
      ['entry', ['index.html.br', 'index.html.gz', 'index.html', 'sw.js.br', 'sw.js.gz', 'sw.js']],
    ])
    expect(plannedUploads(plan).some((u) => u.key === '.preencode-manifest.json')).toBe(false)
    const variant = plannedUploads(plan).find((u) => u.key === 'index.html.br')!
    expect(variant.contentEncoding).toBe('br')
    expect(variant.contentType).toBe('text/plain; charset=utf-8')
  })

  it('skips by sha256, uploads changed and unknown, deletes only with delete on', () => {
    const remote = remoteOf({
      'index.html': 'a-index.html',
      'index.html.br': 'old',
      'index.html.gz': undefined,
      'old.js': 'x',
      '.preencode-deploy-state.json': 'x',
    })
    const plan = planDeploy(manifest, { objects: remote })
    const reasons = Object.fromEntries(plannedUploads(plan).map((u) => [u.key, u.reason]))
    expect(reasons['index.html.br']).toBe('changed')
    expect(reasons['index.html.gz']).toBe('unknown')
    expect(reasons['favicon.ico']).toBe('new')
    expect(reasons['index.html']).toBeUndefined()
    expect(plan.skipped.map((s) => s.key)).toEqual(['index.html'])
    expect(plan.deletions).toEqual([])
    expect(plan.kept).toEqual(['old.js'])
    expect(planDeploy(manifest, { objects: remote }, { delete: true }).deletions).toEqual(['old.js'])
  })

  it('the grace period keeps files of the last N deploys or of deploys live within maxAgeMs', () => {
    const state: DeployState = {
      version: 1,
      objects: {},
      deploys: [
        { id: 'c', time: 3000, keys: ['c.js'] },
        { id: 'b', time: 2000, keys: ['b.js'] },
        { id: 'a', time: 1000, keys: ['a.js'] },
      ],
    }
    expect([...protectedKeys(state, {}, 4000)]).toEqual([])
    expect([...protectedKeys(state, { deploys: 1 }, 4000)]).toEqual(['c.js'])
    expect([...protectedKeys(state, { deploys: 2 }, 4000)].sort()).toEqual(['b.js', 'c.js'])
    // b was live until c went up at 3000: within 1500 ms of now (4000)? 4000-3000 = 1000 < 1500.
    expect([...protectedKeys(state, { maxAgeMs: 1500 }, 4000)].sort()).toEqual(['b.js', 'c.js'])
    const remote = remoteOf({ 'a.js': 'x', 'b.js': 'x', 'c.js': 'x' })
    const plan = planDeploy(manifest, { objects: remote, state }, { delete: true, keep: { deploys: 1 }, now: 4000 })
    expect(plan.deletions).toEqual(['a.js', 'b.js'])
    expect(plan.kept).toEqual(['c.js'])
  })

  it('nextDeployState records the deploy first and prunes history and hashes', () => {
    const previous: DeployState = {
      version: 1,
      objects: { 'gone.js': { sha256: 'g' }, 'kept.js': { sha256: 'k' } },
      deploys: [
        { id: 'a', time: 1, keys: ['kept.js', 'gone.js'] },
        { id: 'z', time: 0, keys: [] },
      ],
    }
    const next = nextDeployState(
      previous,
      { id: 'b', time: 2, keys: ['new.js'] },
      { 'new.js': { sha256: 'n', etag: '"e"' } },
      ['new.js', 'kept.js'],
      { deploys: 0 },
    )
    expect(next.deploys.map((d) => d.id)).toEqual(['b', 'a'])
    expect(next.objects).toEqual({ 'new.js': { sha256: 'n', etag: '"e"' }, 'kept.js': { sha256: 'k' } })
  })
})

describe('targets from --to', () => {
  it.each([
    ['./public', 'local'],
    ['/srv/www', 'local'],
    ['file:///srv/www', 'local'],
    ['deploy@example.com:/srv/www', 'rsync'],
    ['example.com:www', 'rsync'],
    ['rsync://example.com:8873/site/www', 'rsync'],
    ['example.com::site/www', 'rsync'],
    ['s3://bucket/prefix', 's3'],
  ])('%s -> %s', async (to, kind) => {
    expect((await createTarget(to)).kind).toBe(kind)
  })

  it('a local path in release mode goes through rsync', async () => {
    expect((await createTarget('./public', { release: true })).kind).toBe('rsync')
  })

  it('rejects unknown schemes and S3-only flags elsewhere, naming the target', async () => {
    await expect(createTarget('ftp://example.com/x')).rejects.toThrow(
      'Unknown deploy target scheme in "ftp://example.com/x"; use a path, user@host:path, rsync://host/module/path or s3://bucket/prefix.',
    )
    await expect(createTarget('./public', { endpoint: 'http://x' })).rejects.toThrow(
      '`endpoint` does not apply to the local folder target (./public); it applies to S3 targets only.',
    )
    await expect(createTarget('./public', { timeout: 5 }, (key) => `--${key}`)).rejects.toThrow(
      '--timeout does not apply to the local folder target (./public); it applies to S3 targets only.',
    )
    await expect(createTarget('s3://b', { release: true })).rejects.toThrow(
      '`release` does not apply to the S3 target (s3://b): S3 objects are replaced in the safe order instead; it applies to rsync targets only.',
    )
    await expect(createTarget('s3://')).rejects.toThrow(/not an S3 target/)
  })

  it('parses rsync destinations', () => {
    expect(parseRsyncDestination('user@host:/srv/www/')).toEqual({ kind: 'ssh', host: 'user@host', path: '/srv/www' })
    expect(parseRsyncDestination('rsync://h:873/mod/sub')).toEqual({ kind: 'daemon', url: 'rsync://h:873/mod/sub' })
    expect(parseRsyncDestination('/a/b')).toEqual({ kind: 'local', path: '/a/b' })
    expect(() => parseRsyncDestination('rsync://host')).toThrow(/names no module/)
  })
})

describe('deploy settings: one rule each, every source naming them its own way', () => {
  const file = (key: string) => `x.json: deploy.${key}`
  it('accepts good values and names the bad one as the source writes it', () => {
    const good = { concurrency: 4, keep: { deploys: 0, maxAgeMs: 60_000 }, keepReleases: 1, timeout: 2.5 }
    expect(resolveDeploySettings(good)).toEqual(good)
    expect(() => resolveDeploySettings({ concurrency: 0 }, (o) => `--${o}`)).toThrow(
      '--concurrency must be a whole number >= 1; got 0.',
    )
    expect(() => resolveDeploySettings({ concurrency: 2.5 })).toThrow(
      '`concurrency` must be a whole number >= 1; got 2.5.',
    )
    expect(() => resolveDeploySettings({ keepReleases: 0 })).toThrow(
      '`keepReleases` must be a whole number >= 1; got 0.',
    )
    expect(() => resolveDeploySettings({ keep: { deploys: -1 } }, file)).toThrow(
      'x.json: deploy.keep.deploys must be a number >= 0; got -1.',
    )
    expect(() => resolveDeploySettings({ keep: { days: 1 } }, file)).toThrow(
      'x.json: deploy.keep.days is unknown; use deploys or maxAgeMs.',
    )
    expect(() => resolveDeploySettings({ concurency: 3 }, file)).toThrow(
      /^.*x\.json: deploy\.concurency is unknown; known: dir, to/,
    )
    expect(() => resolveDeploySettings({ delete: 'yes' }, file)).toThrow(
      'x.json: deploy.delete must be a boolean; got "yes".',
    )
  })

  it('one timeout: `timeout`, in seconds, one check wherever it is set', async () => {
    const { s3Target } = await import('../../src/targets/s3/s3.js')
    for (const bad of [0, -1, Number.POSITIVE_INFINITY, '30']) {
      const shown = JSON.stringify(bad)
      expect(() => resolveDeploySettings({ timeout: bad }, file)).toThrow(
        `x.json: deploy.timeout must be a number of seconds > 0; got ${shown}.`,
      )
      expect(() => s3Target({ bucket: 'b', timeout: bad as number })).toThrow(
        `\`timeout\` must be a number of seconds > 0; got ${shown}.`,
      )
    }
    // The old millisecond option is refused by name rather than silently ignored.
    expect(() => s3Target({ bucket: 'b', requestTimeoutMs: 1000 } as never)).toThrow(
      /`requestTimeoutMs` is now `timeout`/,
    )
  })
})

describe('retries and errors', () => {
  it('retries retryable errors with back-off, not others', async () => {
    let calls = 0
    const delays: number[] = []
    const value = await withRetry(
      async () => {
        if (++calls < 3) throw Object.assign(new Error('reset'), { code: 'ECONNRESET' })
        return 'ok'
      },
      isRetryableS3Error,
      { retries: 4, baseDelayMs: 1, maxDelayMs: 4 },
      (_n, delay) => delays.push(delay),
    )
    expect(value).toBe('ok')
    expect(calls).toBe(3)
    expect(delays.every((d) => d >= 0 && d <= 4)).toBe(true)
    calls = 0
    await expect(
      withRetry(
        async () => {
          calls++
          throw Object.assign(new Error('no'), { name: 'NoSuchBucket' })
        },
        isRetryableS3Error,
        { baseDelayMs: 1 },
      ),
    ).rejects.toThrow('no')
    expect(calls).toBe(1)
    expect(isRetryableS3Error({ name: 'SlowDown' })).toBe(true)
    expect(isRetryableS3Error({ $metadata: { httpStatusCode: 503 } })).toBe(true)
    expect(isRetryableS3Error({ name: 'InvalidAccessKeyId', $metadata: { httpStatusCode: 403 } })).toBe(false)
  })

  it('redacts secrets', () => {
    expect(redact('key=SECRETVALUE; again SECRETVALUE', ['SECRETVALUE', undefined])).toBe('key=***; again ***')
  })

  it('runPool bounds concurrency and stops starting work after a failure', async () => {
    let active = 0
    let peak = 0
    const started: number[] = []
    await expect(
      runPool([1, 2, 3, 4, 5, 6, 7, 8], 3, async (n) => {
        started.push(n)
        active++
        peak = Math.max(peak, active)
        await new Promise((r) => setTimeout(r, 5))
        active--
        if (n === 2) throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(peak).toBe(3)
    expect(started.length).toBeLessThan(8)
  })
})

describe('deploy() options', () => {
  it('names the bad option', async () => {
    const { deploy, localTarget } = await import('@preencode/deploy')
    await expect(deploy({ dir: '.', target: localTarget('/tmp/x'), concurrency: 0 })).rejects.toThrow(
      /`concurrency` must be a whole number >= 1; got 0/,
    )
    await expect(deploy({ dir: '.', target: localTarget('/tmp/x'), keep: { deploys: -1 } })).rejects.toThrow(
      /`keep\.deploys` must be a number >= 0/,
    )
  })
})
