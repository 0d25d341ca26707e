import { describe, expect, it } from 'vitest'
import { resolveCompressOptions } from '../../src/options/compress-options.js'
import { parseShard, shardJobs } from '../../src/options/shard.js'
import { parseSharedCacheUrl } from '../../src/options/shared-cache-location.js'

describe('shardJobs', () => {
  const jobs = [
    { path: 'big.js', weight: 7_000_000 },
    ...Array.from({ length: 300 }, (_, i) => ({
      path: `page-${String(i).padStart(3, '0')}.html`,
      weight: 20_000 + (i % 7) * 1000,
    })),
    { path: 'mid.js', weight: 3_000_000 },
  ]

  it('splits by bytes into disjoint shares that cover every file', () => {
    const shares = [1, 2, 3].map((index) => shardJobs(jobs, { index, count: 3 }))
    const paths = shares.flatMap((share) => share.map((j) => j.path)).sort()
    expect(paths).toEqual(jobs.map((j) => j.path).sort())
    const bytes = shares.map((share) => share.reduce((t, j) => t + j.weight, 0))
    // The 7 MB file alone outweighs a third: its shard takes nothing else, the others split the rest evenly.
    expect(shares[0]!.map((j) => j.path)).toEqual(['big.js'])
    expect(Math.abs(bytes[1]! - bytes[2]!)).toBeLessThanOrEqual(26_000)
    // By bytes, not by count: the shards' file counts differ widely.
    expect(shares[1]!.length).toBeLessThan(shares[2]!.length)
  })

  it('weighs jobs by the cost it is given: files that are not encoded do not unbalance the shares', () => {
    const site = [
      ...Array.from({ length: 4 }, (_, i) => ({ path: `photo-${i}.jpg`, weight: 10_000_000 })),
      ...Array.from({ length: 40 }, (_, i) => ({ path: `chunk-${String(i).padStart(2, '0')}.js`, weight: 100_000 })),
    ]
    const cost = (job: { path: string; weight: number }) => (job.path.endsWith('.jpg') ? 0 : job.weight)
    const scripts = [1, 2].map(
      (index) => shardJobs(site, { index, count: 2 }, cost).filter((j) => j.path.endsWith('.js')).length,
    )
    expect(scripts).toEqual([20, 20])
  })

  it('gives the same split whatever order the files come in', () => {
    const reversed = [...jobs].reverse()
    for (const index of [1, 2, 3]) {
      expect(
        shardJobs(reversed, { index, count: 3 })
          .map((j) => j.path)
          .sort(),
      ).toEqual(
        shardJobs(jobs, { index, count: 3 })
          .map((j) => j.path)
          .sort(),
      )
    }
  })
})

describe('parseShard and shared cache locations', () => {
  it('accepts i/n and names the setting through the label otherwise', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 })
    for (const bad of ['0/3', '4/3', '1/0', 'a/b', '2']) {
      expect(() => parseShard(bad, (key) => `--${key}`)).toThrow(/--shard is `.*`; it must be i\/n/)
      expect(() => parseShard(bad)).toThrow(/`shard` is `.*`; it must be i\/n/)
    }
  })

  it('parses s3://bucket/prefix with the endpoint from the option or AWS_ENDPOINT_URL', () => {
    expect(parseSharedCacheUrl('s3://ci-cache/site/main', undefined, {})).toEqual({
      url: 's3://ci-cache/site/main',
      bucket: 'ci-cache',
      prefix: 'site/main/',
      endpoint: undefined,
    })
    expect(
      parseSharedCacheUrl('s3://ci-cache', undefined, { AWS_ENDPOINT_URL: 'http://127.0.0.1:9000' }).endpoint,
    ).toBe('http://127.0.0.1:9000')
    expect(
      parseSharedCacheUrl('s3://ci-cache/', 'https://r2.example', { AWS_ENDPOINT_URL: 'http://x:1' }),
    ).toMatchObject({ prefix: '', endpoint: 'https://r2.example' })
    expect(() => parseSharedCacheUrl('s3://A_bucket/x', undefined, {})).toThrow(/`cache` is `s3:\/\/A_bucket\/x`/)
    expect(() => resolveCompressOptions({ cache: 's3://ci-cache/x', cacheEndpoint: 'ftp://nope' })).toThrow(
      /`cacheEndpoint` is `ftp:\/\/nope`/,
    )
  })

  it('keeps a local cache directory in front of the bucket', () => {
    const options = resolveCompressOptions({ cache: 's3://ci-cache/x' }, '/tmp')
    expect(options.sharedCache).toMatchObject({ bucket: 'ci-cache', prefix: 'x/' })
    expect(typeof options.cacheDir).toBe('string')
  })
})
