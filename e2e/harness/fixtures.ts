// Worker-scoped fixtures: the project's server is started once per worker from the site built
// in globalSetup, stopped after; its config and output are attached to every failed test.
import { test as base } from '@playwright/test'
import type { Manifest } from '@preencode/core'
import { SITES_ENV } from '../global-setup.ts'
import { startServer, type RunningServer, type ServerKind } from './servers.ts'
import { loadManifest, type BuiltSites } from './site.ts'

export interface ServerOptions {
  serverKind: ServerKind
  keepOriginals: boolean
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

export const test = base.extend<{ serverLogs: void }, WorkerFixtures>({
  serverKind: ['node', { option: true, scope: 'worker' }],
  keepOriginals: [true, { option: true, scope: 'worker' }],
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
    async ({ serverKind, site }, use) => {
      const server = await startServer(serverKind, site.manifest, site.root)
      try {
        await use(server)
      } finally {
        await server.stop()
      }
    },
    { scope: 'worker' },
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
