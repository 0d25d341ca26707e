import { createSiteRunner } from '@preencode/server-config'
import type { SiteConfig } from 'vitepress'
import type { PreencodeVitePressOptions } from './options.js'

/**
 * Returns a VitePress `buildEnd` hook (`buildEnd: preencode()`) that pre-compresses the built
 * site — every rendered page, script, stylesheet and the sitemap — in `outDir`. VitePress calls
 * `buildEnd` after it has rendered every page and written the sitemap. The work is core's
 * build runner, shared with the Vite and Rollup plugins.
 */
export function preencode(options: PreencodeVitePressOptions = {}): (siteConfig: SiteConfig) => Promise<void> {
  // Validated when the config is loaded, so a typo fails before the build instead of after it.
  // Relative paths (cache, serverConfigs) are relative to where the build runs, beside node_modules.
  const runner = createSiteRunner(options, process.cwd(), 'vitepress')
  return ({ logger, outDir }) => runner.run([outDir], outDir, logger)
}
