// Builds the sites (and makes the HTTPS certificates) once for every project and worker; workers find them through the
// environment (Playwright passes globalSetup's process.env on to them).
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildSites } from './harness/site.ts'
import { makeCertificates, TLS_ENV } from './harness/tls.ts'

export const SITES_ENV = 'PREENCODE_E2E_SITES'

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'preencode-e2e-'))
  // The HTTPS projects' CA and certificate, made for this run only (never committed).
  const tls = join(dir, 'tls')
  await mkdir(tls, { mode: 0o755 })
  process.env[TLS_ENV] = JSON.stringify(makeCertificates(tls))
  const sites = await buildSites(dir)
  process.env[SITES_ENV] = JSON.stringify(sites)
  return async () => {
    if (!process.env.PREENCODE_E2E_KEEP) await rm(dir, { recursive: true, force: true })
  }
}
