// The transport option of a project: `tls: true` serves over HTTPS + HTTP/2 at
// www.preencode.test (tls.ts), and Chromium is launched trusting the run's certificate with
// the name mapped to 127.0.0.1, so it takes its real secure-context path.
import { test as base } from '@playwright/test'
import { chromiumTlsArgs } from './tls.ts'

export interface TransportOptions {
  /** HTTPS + HTTP/2 at www.preencode.test instead of HTTP at 127.0.0.1. */
  tls: boolean
}

export const test = base.extend<object, TransportOptions>({
  tls: [false, { option: true, scope: 'worker' }],
  launchOptions: [
    async ({ launchOptions, tls }, use) => {
      await use(tls ? { ...launchOptions, args: [...(launchOptions.args ?? []), ...chromiumTlsArgs()] } : launchOptions)
    },
    { scope: 'worker' },
  ],
})

export { expect } from '@playwright/test'
