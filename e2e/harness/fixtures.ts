// Worker-scoped fixtures: the project's server is started once per worker from the site built
// in globalSetup, stopped after; its config and output are attached to every failed test.
import type { Manifest } from '@preencode/core'
import { SITES_ENV } from '../global-setup.ts'
import { isRuntimeKind } from './runtimes/kinds.ts'
import { runtimeMissing } from './runtimes/start.ts'
import { type RunningServer, type ServerKind, startServer } from './servers.ts'
import { type BuiltSites, loadManifest } from './site.ts'
import { test as base, type TransportOptions } from './transport.ts'

export interface ServerOptions extends TransportOptions {
  serverKind: ServerKind
  keepOriginals: boolean
  /** Caddy: also HTTP/3, and Chromium forced onto it (QUIC) for this origin. */
  h3: boolean
}

export interface Site {
  root: string
  manifest: Manifest
  source: BuiltSites['source']
}

interface WorkerFixtures extends ServerOptions {
  site: Site
  server: RunningServer
}

export const test = base.extend<{ serverLogs: void; runtimeCheck: void }, WorkerFixtures>({
  serverKind: ['node', { option: true, scope: 'worker' }],
  keepOriginals: [true, { option: true, scope: 'worker' }],
  h3: [false, { option: true, scope: 'worker' }],
  // h3: QUIC forced for the server's origin (the flag needs the port: the server starts first).
  launchOptions: [
    async ({ launchOptions, h3, server }, use) => {
      if (!h3) return use(launchOptions)
      const args = (launchOptions.args ?? []).filter((a) => a !== '--disable-quic')
      await use({
        ...launchOptions,
        args: [...args, '--enable-quic', `--origin-to-force-quic-on=${new URL(server.url).host}`],
      })
    },
    { scope: 'worker' },
  ],
  site: [
    async ({ keepOriginals }, use) => {
      const raw = process.env[SITES_ENV]
      if (!raw)
        throw new Error(`${SITES_ENV} is not set: run through e2e/playwright.config.ts (globalSetup builds the sites)`)
      const sites = JSON.parse(raw) as BuiltSites
      const root = keepOriginals ? sites.keep : sites.nokeep
      await use({ root, manifest: await loadManifest(root), source: sites.source })
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ serverKind, site, tls, h3 }, use) => {
      const server = await startServer(serverKind, site.manifest, site.root, { tls, h3 })
      try {
        await use(server)
      } finally {
        await server.stop()
      }
    },
    { scope: 'worker' },
  ],
  // A runtime missing on this machine (its binary, or the handler not built) skips, saying which.
  runtimeCheck: [
    async ({ serverKind }, use) => {
      const missing = isRuntimeKind(serverKind) ? await runtimeMissing(serverKind) : undefined
      test.skip(missing !== undefined, `missing on this machine: ${missing}`)
      await use()
    },
    { auto: true },
  ],
  serverLogs: [
    async ({ server }, use, testInfo) => {
      await use()
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach(`${server.kind}.log`, { body: server.logs(), contentType: 'text/plain' })
      }
    },
    { auto: true },
  ],
})

export { expect } from '@playwright/test'
