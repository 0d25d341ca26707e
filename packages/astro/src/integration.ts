import { fileURLToPath } from 'node:url'
import { createSiteRunner, type SiteRunner } from '@preencode/server-config'
import type { AstroIntegration, AstroIntegrationLogger } from 'astro'
import type { PreencodeAstroOptions } from './options.js'

/** The integration's `name` in Astro's list (and in its messages). */
export const INTEGRATION_NAME = '@preencode/astro'

/**
 * Pre-compresses the final Astro site (gzip, brotli and zstd beside each page, script and
 * stylesheet) in `astro:build:done`, once Astro has written every page. With server output
 * only the client folder is compressed: pages rendered on request are not files. The work is
 * core's build runner, shared with the Vite and Rollup plugins.
 */
export function preencode(options: PreencodeAstroOptions = {}): AstroIntegration {
  let runner: SiteRunner
  let buildOutput: 'static' | 'server' = 'static'
  const integration: AstroIntegration = {
    name: INTEGRATION_NAME,
    hooks: {
      'astro:config:setup': ({ config, command, logger }) => {
        // Validated in every command: a typo in the options fails `astro dev` too, not only CI.
        runner = createSiteRunner(options, fileURLToPath(config.root), 'astro')
        if (command === 'build') warnAboutLaterWriters(config.integrations, integration, logger)
      },
      'astro:config:done': (params) => {
        buildOutput = params.buildOutput
      },
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir)
        if (buildOutput === 'server' && runner.options.report === true) {
          logger.info(
            `server output: compressing the client folder ${outDir} (pages rendered on request are not files)`,
          )
        }
        await runner.run([outDir], outDir, logger)
      },
    },
  }
  return integration
}

/**
 * Integrations run their `astro:build:done` hooks in the order they are listed: files that a
 * later one writes there (a sitemap, a search index) would be missing from the manifest.
 */
function warnAboutLaterWriters(
  integrations: AstroIntegration[],
  self: AstroIntegration,
  logger: AstroIntegrationLogger,
): void {
  // Astro may hand integrations over as copies: find ours by identity, else by name.
  const index = integrations.findIndex((other) => other === self || other.name === self.name)
  if (index === -1) return
  const later = integrations
    .slice(index + 1)
    .filter((other) => other.name !== self.name && other.hooks['astro:build:done'] !== undefined)
  if (later.length === 0) return
  const names = later.map((other) => other.name).join(', ')
  logger.warn(
    `${names} run${later.length === 1 ? 's' : ''} after ${INTEGRATION_NAME} at the end of the build: files written there are not compressed. List preencode() last in \`integrations\`.`,
  )
}
