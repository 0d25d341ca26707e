import { fileURLToPath } from 'node:url'
import { compressDirectory, formatReport } from '@preencode/core'
import type { AstroIntegration, AstroIntegrationLogger } from 'astro'
import { resolvePreencodeAstroOptions, type PreencodeAstroOptions, type ResolvedPreencodeAstroOptions } from './options.js'

export const INTEGRATION_NAME = '@preencode/astro'

/**
 * Pre-compresses the final Astro site (gzip, brotli and zstd beside each page, script and
 * stylesheet) in `astro:build:done`, once Astro has written every page. With server output
 * only the client folder is compressed: the pages rendered on request are not files.
 */
export function preencode(options: PreencodeAstroOptions = {}): AstroIntegration {
  let resolved: ResolvedPreencodeAstroOptions
  let buildOutput: 'static' | 'server' = 'static'
  const integration: AstroIntegration = {
    name: INTEGRATION_NAME,
    hooks: {
      'astro:config:setup': ({ config, command, logger }) => {
        // Validate in every command: a typo in the options fails `astro dev` too, not only CI.
        resolved = resolvePreencodeAstroOptions(options, fileURLToPath(config.root))
        if (command === 'build') warnAboutLaterWriters(config.integrations, integration, logger)
      },
      'astro:config:done': (params) => {
        buildOutput = params.buildOutput
      },
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir)
        const { report } = await compressDirectory(outDir, resolved.compressOptions, {
          logger: {
            info: (message) => { if (resolved.report === true) logger.info(message) },
            warn: (message) => logger.warn(message),
          },
        })
        if (resolved.report === 'json') logger.info(JSON.stringify(report))
        else if (resolved.report) {
          const scope = buildOutput === 'server' ? ' (server output: the client folder; pages rendered on request are not files)' : ''
          logger.info(`${outDir}${scope}\n${formatReport(report, { color: wantsColor() })}`)
        }
      },
    },
  }
  return integration
}

/**
 * Integrations run their `astro:build:done` hooks in the order they are listed: files that a
 * later one writes there (a sitemap, a search index) would be missing from the manifest.
 */
function warnAboutLaterWriters(integrations: AstroIntegration[], self: AstroIntegration, logger: AstroIntegrationLogger): void {
  const later = integrations.slice(integrations.indexOf(self) + 1).filter((other) => other.hooks['astro:build:done'] !== undefined)
  if (later.length === 0) return
  const names = later.map((other) => other.name).join(', ')
  logger.warn(`${names} run${later.length === 1 ? 's' : ''} after ${INTEGRATION_NAME} at the end of the build: files written there are not compressed. List preencode() last in \`integrations\`.`)
}

function wantsColor(): boolean {
  return process.stdout.isTTY === true && !process.env.CI && !process.env.NO_COLOR
}
