import { compressDirectory, formatReport } from '@preencode/core'
import type { SiteConfig } from 'vitepress'
import { resolvePreencodeVitePressOptions, type PreencodeVitePressOptions } from './options.js'

/**
 * Returns a VitePress `buildEnd` hook (`buildEnd: preencode()`) that pre-compresses the built
 * site — every rendered page, script, stylesheet and the sitemap — in `outDir`. VitePress calls
 * `buildEnd` after it has rendered every page and written the sitemap.
 */
export function preencode(options: PreencodeVitePressOptions = {}): (siteConfig: SiteConfig) => Promise<void> {
  // Validated when the config is loaded, so a typo fails before the build instead of after it.
  // Relative paths (the cache) are relative to where the build runs, i.e. beside node_modules.
  const resolved = resolvePreencodeVitePressOptions(options, process.cwd())
  return async (siteConfig) => {
    const { logger } = siteConfig
    const { report } = await compressDirectory(siteConfig.outDir, resolved.compressOptions, {
      logger: {
        info: (message) => { if (resolved.report === true) logger.info(message) },
        warn: (message) => logger.warn(message),
      },
    })
    if (resolved.report === 'json') logger.info(JSON.stringify(report))
    else if (resolved.report) logger.info(`\n${siteConfig.outDir}\n${formatReport(report, { color: wantsColor() })}`)
  }
}

function wantsColor(): boolean {
  return process.stdout.isTTY === true && !process.env.CI && !process.env.NO_COLOR
}
