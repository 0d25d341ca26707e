// The transport option of a project: `tls: true` serves over HTTPS + HTTP/2 at
// www.preencode.test (tls.ts), and Chromium is launched trusting the run's certificate with
// the name mapped to 127.0.0.1, so it takes its real secure-context path.
import { readFileSync } from 'node:fs'
import { test as base, chromium, type LaunchOptions, type Page } from '@playwright/test'
import { chromiumTlsArgs, DICTIONARY_FEATURE } from './tls.ts'

export interface TransportOptions {
  /** HTTPS + HTTP/2 at www.preencode.test instead of HTTP at 127.0.0.1. */
  tls: boolean
}

/**
 * The `--disable-features` list Playwright launches Chromium with, read from a running
 * browser's command line. Chromium keeps only the last `--disable-features` switch, so ours
 * must carry Playwright's names too, or it would switch them back on.
 */
async function playwrightDisabledFeatures(launchOptions: LaunchOptions): Promise<string[]> {
  const server = await chromium.launchServer(launchOptions)
  try {
    const argv = readFileSync(`/proc/${server.process().pid}/cmdline`, 'utf8').split('\0')
    const flags = argv.filter((a) => a.startsWith('--disable-features='))
    return flags.flatMap((f) => f.slice('--disable-features='.length).split(',')).filter(Boolean)
  } finally {
    await server.close()
  }
}

export const test = base.extend<object, TransportOptions>({
  tls: [false, { option: true, scope: 'worker' }],
  launchOptions: [
    async ({ launchOptions, tls }, use) => {
      if (!tls) return use(launchOptions)
      const features = [...(await playwrightDisabledFeatures(launchOptions)), DICTIONARY_FEATURE]
      await use({
        ...launchOptions,
        args: [...(launchOptions.args ?? []), ...chromiumTlsArgs(), `--disable-features=${features.join(',')}`],
      })
    },
    { scope: 'worker' },
  ],
})

/** What the page says of its transport: a secure context?, its origin, and each response's protocol. */
export interface PageTransport {
  secure: boolean
  origin: string
  /** Responses from the network (one the page took from its cache has no protocol). */
  protocols: { type: string; path: string; protocol: string }[]
}

/** Reads `PageTransport` off the page's own navigation and resource timing. */
export function pageTransport(page: Page): Promise<PageTransport> {
  return page.evaluate(() => ({
    secure: window.isSecureContext,
    origin: window.location.origin,
    protocols: [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
      .map((e) => e as PerformanceResourceTiming)
      .filter((e) => e.transferSize > 0 || e.nextHopProtocol !== '')
      .map((e) => ({ type: e.initiatorType, path: new URL(e.name).pathname, protocol: e.nextHopProtocol })),
  }))
}

export { expect } from '@playwright/test'
