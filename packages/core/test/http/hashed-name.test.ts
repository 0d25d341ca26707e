// The content-hash rule (hashed-name.ts) in every dialect decides alike (issue 30 item 2, issue 27
// item 4): core's `looksContentHashed` and `versionedAsset`, the JavaScript/PCRE/PCRE2 form run by
// perl (PCRE's semantics), the RE2 form run by Go's regexp (Caddy's engine), on one table of
// names and a few thousand random 8-character hashes; and the PCRE forms compile in nginx -t and
// varnishd -C as the generated configs use them.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { versionedAsset } from '@preencode/core'
import { hasTool, tempDir, toolPath } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HASH_TOKEN_RE2,
  HASHED_NAME,
  HASHED_NAME_RE2,
  looksContentHashed,
  versionedAssetPattern,
} from '../../src/http/hashed-name.js'
import { VERSIONED_ASSET_PATTERN } from '../../src/http/use-as-dictionary.js'

/** Names and whether they are content-hashed, as the rule means it. */
const TABLE: [string, boolean][] = [
  ['lib-abcdefGh.js', false], // one capital, no digit: a name (issue 30 item 2)
  ['chunk1-nzlvsi-F.js', false], // the digit is in the stem, not in the hash
  ['app-settings.js', false],
  ['my-Settings.js', false],
  ['index-BxK3_z9a.js', true],
  ['index-AbcdefGh.css', true],
  ['index-abcdef1h.mjs', true],
  ['x-1234567.js', false], // 7 characters
  ['x-123456789.js', true], // 9 hex digits with a digit (Rsbuild's [contenthash:9])
  ['lib-react.338ea7d359.js', true], // Rsbuild / Rspack / webpack [contenthash:10] (issue 34 item 4)
  ['lib-react-338ea7d359.js', true],
  ['static/js/main.8f3e2a1b9c4d5e6f7a.js', true], // 18 hex
  ['x-abcdef12345.css', true], // 11 hex
  ['coffee-deadbeefcafe.js', false], // 12 hex letters, no digit: a word, not a hash
  ['deadbeef-feedface.js', false], // 8 letters a-f: a word
  ['x-abcdef1234567890a.js', true], // 17 hex: the 16-64 rule
  ['x-0123456789abcdef0123.js', true], // 20 hex
  ['x-338ea7d359Z.js', false], // not hex, not 8 characters
  ['main.0123456789abcdef.js', true], // webpack's 16 hex
  ['main.0123456789ABCDEF.js', false], // 16 characters but not lower-case hex
  ['style~9f8e7d6c.css', true],
  ['a_b-c_D-E_f.js', false], // the 8 characters before `.js` follow `b`, not a separator
  ['a_b-c_D-E_f1.js', true], // the hash `c_D-E_f1` holds a digit
  ['logo-A1b2C3d4.svg', true],
  ['data-abcdefgh.json', false],
  ['font-ABCDEFGH.woff2', true],
  ['photo-a1b2c3d4.png', true],
  ['page.html', false],
  ['-12345678.js', true], // nothing before the separator: hashed, but not a versioned asset
  ['ünï-A1b2C3d4.js', true], // hashed, but the stem is not URL-safe: not versioned
]

/** Seeded random 8-character base64url hashes, as Vite and Rollup write them. */
function randomHashes(count: number): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'
  let seed = 0x9e3779b9
  const next = (): number => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) % alphabet.length
  }
  return Array.from({ length: count }, (_, i) => {
    const hash = Array.from({ length: 8 }, () => alphabet[next()]).join('')
    return ['assets/index-', 'chunk.', 'lib~', 'vendor_'][i % 4] + hash + ['.js', '.css', '.mjs', '.svg'][i % 4]
  })
}

/** Seeded random 8-20 hex-digit hashes, as Rsbuild, Rspack and webpack write `[contenthash:n]`. */
function randomHexHashes(count: number): string[] {
  let seed = 0x2545f491
  const next = (n: number): number => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) % n
  }
  return Array.from({ length: count }, (_, i) => {
    const hash = Array.from(
      { length: 8 + (i % 13) },
      () => '0123456789abcdef'[next(i % 3 === 0 ? 6 : 16) + (i % 3 === 0 ? 10 : 0)],
    ).join('')
    return ['static/js/lib-react.', 'chunk-', 'app.'][i % 3] + hash + ['.js', '.css', '.svg'][i % 3]
  })
}

const NAMES = [...TABLE.map(([name]) => name), ...randomHashes(3000), ...randomHexHashes(1000)]

/** Each name tested against `pattern` by perl (PCRE semantics): 1 or 0 per name. */
function perlDecisions(pattern: string, names: readonly string[]): boolean[] {
  const run = spawnSync('perl', ['-nle', 'BEGIN { $r = qr/$ENV{RE}/ } print(/$r/ ? 1 : 0)'], {
    input: `${names.join('\n')}\n`,
    env: { ...process.env, RE: pattern },
    encoding: 'utf8',
  })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => line === '1')
}

/** Go's toolchain, where the set-up or the system put it. */
const GO = [...(process.env.PATH ?? '').split(':'), '/usr/local/go/bin']
  .map((dir) => join(dir, 'go'))
  .find((path) => path.startsWith('/') && existsSync(path))

const GO_MATCHER = `package main

import ("bufio"; "fmt"; "os"; "regexp")

func main() {
	re := regexp.MustCompile(os.Args[1])
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() { if re.MatchString(in.Text()) { fmt.Println(1) } else { fmt.Println(0) } }
}
`

describe('one content-hash rule in every dialect', () => {
  let work: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    work = await tempDir('hashed-name')
  })
  afterAll(async () => {
    await work?.remove()
  })

  const expected = NAMES.map((name) => looksContentHashed(name))

  it('the table says what the rule means, and random hashes count when they hold a digit or two capitals', () => {
    for (const [name, hashed] of TABLE) {
      const token = /[-.~_]([A-Za-z0-9_-]{8}|[a-f0-9]{9,64})\.[A-Za-z0-9]+$/.exec(name)?.[1]
      const meant =
        token !== undefined &&
        (token.length > 15 || /[0-9]/.test(token) || (token.length === 8 && (token.match(/[A-Z]/g)?.length ?? 0) >= 2))
      expect(meant, `${name}: the rule as the issue states it`).toBe(hashed)
      expect(looksContentHashed(name), name).toBe(hashed)
    }
    const plain = NAMES.slice(TABLE.length, TABLE.length + 3000).filter((name) => !looksContentHashed(name)).length
    // About 1.1% of random hashes have no digit and fewer than two capitals.
    expect(plain).toBeGreaterThan(0)
    expect(plain).toBeLessThan(100)
    // Hex hashes: a third are made of the letters a-f only (words, for the rule, below 16).
    for (const name of NAMES.slice(TABLE.length + 3000)) {
      const hash = name.slice(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1, name.lastIndexOf('.'))
      const token = hash.slice(hash.search(/[^-.]*$/))
      expect(looksContentHashed(name), name).toBe(token.length >= 16 || /[0-9]/.test(token))
    }
  })

  it('a versioned asset is always content-hashed: the delta writer and the cache policy agree', () => {
    for (const name of NAMES) {
      if (versionedAsset(name)) expect(looksContentHashed(name), name).toBe(true)
      const base = name.slice(name.lastIndexOf('/') + 1)
      if (looksContentHashed(name) && /^[A-Za-z0-9_.~-]+\.(js|css|mjs|svg)$/.test(base) && !base.startsWith('-'))
        expect(versionedAsset(name), name).toBeDefined()
    }
    for (const name of ['lib-abcdefGh.js', 'chunk1-nzlvsi-F.js']) expect(versionedAsset(name), name).toBeUndefined()
  })

  it('the RE2 form decides as the lookahead form (both run in JavaScript)', () => {
    const re2 = new RegExp(HASHED_NAME_RE2)
    const versionedRe2 = new RegExp(versionedAssetPattern(HASH_TOKEN_RE2))
    const versioned = new RegExp(VERSIONED_ASSET_PATTERN)
    for (const [i, name] of NAMES.entries()) {
      expect(re2.test(name), name).toBe(expected[i])
      const base = name.slice(name.lastIndexOf('/') + 1)
      expect(versionedRe2.test(base), name).toBe(versioned.test(base))
    }
  })

  it('perl (PCRE) decides as core on every name', ({ skip }) => {
    skip(!hasTool('perl'), 'missing on this machine: perl')
    expect(perlDecisions(HASHED_NAME, NAMES)).toEqual(expected)
    const bases = NAMES.map((name) => name.slice(name.lastIndexOf('/') + 1))
    expect(perlDecisions(VERSIONED_ASSET_PATTERN, bases)).toEqual(
      bases.map((base) => versionedAsset(base) !== undefined),
    )
  })

  it('Go’s regexp (RE2, as Caddy) decides as core on every name', async ({ skip }) => {
    skip(GO === undefined, 'missing on this machine: go')
    const dir = join(work.path, 'go')
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'main.go'), GO_MATCHER)
    const decide = (pattern: string, names: readonly string[]): boolean[] => {
      const run = spawnSync(GO!, ['run', 'main.go', pattern], {
        cwd: dir,
        input: `${names.join('\n')}\n`,
        encoding: 'utf8',
        env: { ...process.env, GOFLAGS: '-mod=mod', GO111MODULE: 'off', HOME: process.env.HOME ?? work.path },
      })
      expect(run.status, run.stderr).toBe(0)
      return run.stdout
        .trim()
        .split('\n')
        .map((line) => line === '1')
    }
    expect(decide(HASHED_NAME_RE2, NAMES)).toEqual(expected)
    const bases = NAMES.map((name) => name.slice(name.lastIndexOf('/') + 1))
    expect(decide(versionedAssetPattern(HASH_TOKEN_RE2), bases)).toEqual(
      bases.map((base) => versionedAsset(base) !== undefined),
    )
  })

  it('nginx -t compiles the PCRE forms in a map and a location', async ({ skip }) => {
    skip(!hasTool('nginx'), 'missing on this machine: nginx')
    const dir = join(work.path, 'nginx')
    await mkdir(join(dir, 'logs'), { recursive: true })
    const conf = [
      'error_log logs/error.log;',
      'pid logs/nginx.pid;',
      'events {}',
      'http {',
      '  access_log off;',
      `  map $uri $hashed { default 0; "~${HASHED_NAME}" 1; }`,
      '  server {',
      '    listen 127.0.0.1:8089;',
      `    location ~ "/${VERSIONED_ASSET_PATTERN.slice(1)}" { return 200 $hashed; }`,
      '  }',
      '}',
    ].join('\n')
    await writeFile(join(dir, 'nginx.conf'), conf)
    const check = spawnSync(toolPath('nginx'), ['-p', dir, '-c', join(dir, 'nginx.conf'), '-t'], { encoding: 'utf8' })
    expect(check.status, check.stderr).toBe(0)
  })

  it('varnishd -C compiles the PCRE2 forms', async ({ skip }) => {
    skip(!existsSync('/usr/sbin/varnishd'), 'missing on this machine: varnishd')
    const file = join(work.path, 'hashed.vcl')
    await writeFile(
      file,
      [
        'vcl 4.1;',
        'backend default { .host = "127.0.0.1"; .port = "8080"; }',
        'sub vcl_recv {',
        `  if (req.url ~ "${HASHED_NAME}") { return (pass); }`,
        `  if (req.url ~ "/${VERSIONED_ASSET_PATTERN.slice(1)}") { return (pass); }`,
        '}',
      ].join('\n'),
    )
    // varnishd reads the VCL as its own user.
    await chmod(work.path, 0o755)
    await chmod(file, 0o644)
    const check = spawnSync('/usr/sbin/varnishd', ['-C', '-f', file, '-n', join(work.path, 'varnish')], {
      encoding: 'utf8',
    })
    expect(check.status, check.stderr).toBe(0)
  })
})
