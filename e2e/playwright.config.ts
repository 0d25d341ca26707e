import { defineConfig, type Project } from '@playwright/test'
import { inapplicable } from './harness/applies.ts'
import type { ServerOptions } from './harness/fixtures.ts'
import { RUNTIME_KINDS } from './harness/runtimes/kinds.ts'

// One project per server and flavour; every project runs the same suite (tests/serving.spec.ts).
// `keepOriginals: false` projects serve a second site built with only the variants on disk.
// `-https` projects serve the same over HTTPS + HTTP/2 at www.preencode.test (h3: also HTTP/3);
// `-include` projects serve the include form inside a user's own TLS server block.
// A test that cannot apply to a project is not declared there (harness/applies.ts: grepInvert).
const projects: { name: string; use: Partial<ServerOptions> }[] = [
  { name: 'apache-htaccess', use: { serverKind: 'apache-htaccess', keepOriginals: true } },
  { name: 'apache-vhost', use: { serverKind: 'apache-vhost', keepOriginals: true } },
  { name: 'nginx-modules', use: { serverKind: 'nginx-modules', keepOriginals: true } },
  { name: 'nginx-stock', use: { serverKind: 'nginx-stock', keepOriginals: true } },
  { name: 'caddy', use: { serverKind: 'caddy', keepOriginals: true } },
  { name: 'node-middleware', use: { serverKind: 'node', keepOriginals: true } },
  // The generated Cloudflare Worker in workerd (Miniflare, offline): harness/cloudflare.ts.
  { name: 'cloudflare-worker', use: { serverKind: 'cloudflare', keepOriginals: true } },
  { name: 'apache-vhost-nokeep', use: { serverKind: 'apache-vhost', keepOriginals: false } },
  { name: 'nginx-modules-nokeep', use: { serverKind: 'nginx-modules', keepOriginals: false } },
  { name: 'nginx-stock-nokeep', use: { serverKind: 'nginx-stock', keepOriginals: false } },
  { name: 'node-middleware-nokeep', use: { serverKind: 'node', keepOriginals: false } },
  { name: 'nginx-stock-https', use: { serverKind: 'nginx-stock', keepOriginals: true, tls: true } },
  { name: 'apache-vhost-https', use: { serverKind: 'apache-vhost', keepOriginals: true, tls: true } },
  { name: 'caddy-https', use: { serverKind: 'caddy', keepOriginals: true, tls: true } },
  { name: 'caddy-h3', use: { serverKind: 'caddy', keepOriginals: true, tls: true, h3: true } },
  { name: 'nginx-include', use: { serverKind: 'nginx-include', keepOriginals: true, tls: true } },
  { name: 'nginx-include-modules', use: { serverKind: 'nginx-include-modules', keepOriginals: true, tls: true } },
  { name: 'apache-include', use: { serverKind: 'apache-include', keepOriginals: true, tls: true } },
  { name: 'caddy-include', use: { serverKind: 'caddy-include', keepOriginals: true, tls: true } },
  { name: 'cloudflare-worker-nokeep', use: { serverKind: 'cloudflare', keepOriginals: false } },
  // The Fetch handler (createPreencodeHandler) under Node, and `preencode serve` on it.
  { name: 'fetch-node', use: { serverKind: 'fetch-node', keepOriginals: true } },
  { name: 'fetch-node-nokeep', use: { serverKind: 'fetch-node', keepOriginals: false } },
  { name: 'preencode-serve', use: { serverKind: 'preencode-serve', keepOriginals: true } },
  { name: 'preencode-serve-nokeep', use: { serverKind: 'preencode-serve', keepOriginals: false } },
  { name: 'preencode-serve-https', use: { serverKind: 'preencode-serve', keepOriginals: true, tls: true } },
  // The same Worker in `wrangler dev` (its dev proxy in front of Miniflare): harness/cloudflare.ts.
  { name: 'cloudflare-wrangler-dev', use: { serverKind: 'cloudflare-dev', keepOriginals: true } },
  // The Fetch handler (createPreencodeHandler) on each runtime: harness/runtimes/.
  ...RUNTIME_KINDS.map((kind) => ({ name: kind, use: { serverKind: kind, keepOriginals: true } })),
  { name: 'bun-serve-nokeep', use: { serverKind: 'bun-serve', keepOriginals: false } },
  { name: 'deno-serve-nokeep', use: { serverKind: 'deno-serve', keepOriginals: false } },
]

/** Each project declares only the tests that can apply to it (harness/applies.ts). */
function applicable(list: Project<object, ServerOptions>[]): Project<object, ServerOptions>[] {
  return list.map((project) => ({ ...project, grepInvert: inapplicable(project.use ?? {}) }))
}

export default defineConfig<object, ServerOptions>({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  timeout: 60_000,
  fullyParallel: false,
  workers: 2,
  // The framework suite's per-tool summary (files complete / stale) after the list's own.
  reporter: [['list'], ['./frameworks/summary-reporter.ts']],
  use: {
    launchOptions: {
      // Debian's Chromium; no browser download works here.
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: applicable([
    ...projects,
    // Framework fixtures (playground/frameworks/) built by their own build commands, once per run
    // and two at a time (frameworks-build), then served by nginx to Chromium; not a server
    // flavour, so not part of the serving suite.
    { name: 'frameworks-build', testDir: './frameworks', testMatch: /build\.setup\.ts$/, timeout: 900_000 },
    { name: 'frameworks', testDir: './frameworks', timeout: 600_000, dependencies: ['frameworks-build'] },
    // RFC 9842 delta updates: a Vite app built twice, served by each real server to Chromium.
    { name: 'dictionary', testDir: './dictionary', timeout: 600_000 },
    // Varnish with the generated VCL in front of the generated nginx config (stock flavour).
    { name: 'cache', testDir: './cache', timeout: 600_000, use: { serverKind: 'nginx-stock', keepOriginals: true } },
    // The Chromium parts (delta update, page navigation) over HTTPS + HTTP/2 at www.preencode.test.
    {
      name: 'dictionary-https',
      testDir: './dictionary',
      testMatch: /(delta-update|pages)\.spec\.ts$/,
      timeout: 600_000,
      use: { tls: true },
    },
    // The Cloudflare Worker beyond the shared suite: bytes equal the stored variant (with a
    // control), and the user's path through wrangler dev and wrangler deploy --dry-run, offline.
    { name: 'cloudflare-edge', testDir: './cloudflare', use: { serverKind: 'cloudflare' } },
    // The HTML report (`preencode report --html`) opened from the file in Chromium, offline.
    { name: 'report', testDir: './report' },
  ]),
})
