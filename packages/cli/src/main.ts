import { createRequire } from 'node:module'
import { defineCommand } from 'citty'

const { version } = createRequire(import.meta.url)('../package.json') as { version: string }

/** `preencode <command>`; each subcommand lives in its own file and is loaded only when used. */
export const main = defineCommand({
  meta: { name: 'preencode', version, description: 'Pre-compress a static site and serve it right' },
  subCommands: {
    compress: () => import('./commands/compress.js').then((m) => m.compressCommand),
    config: () => import('./commands/config.js').then((m) => m.configCommand),
    deploy: () => import('./commands/deploy.js').then((m) => m.deployCommand),
    verify: () => import('./commands/verify.js').then((m) => m.verifyCommand),
    report: () => import('./commands/report.js').then((m) => m.reportCommand),
    serve: () => import('./commands/serve.js').then((m) => m.serveCommand),
  },
})
