// Builds the sites once for every project and worker; workers find them through the
// environment (Playwright passes globalSetup's process.env on to them).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildSites } from './harness/site.ts'

export const SITES_ENV = 'PREENCODE_E2E_SITES'

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'preencode-e2e-'))
  const sites = await buildSites(dir)
  process.env[SITES_ENV] = JSON.stringify(sites)
  return async () => {
    if (!process.env.PREENCODE_E2E_KEEP) await rm(dir, { recursive: true, force: true })
  }
}
