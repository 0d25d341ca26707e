// Caddy (a current release from .tools/go/bin; Debian's 2.6 lacks what the generated snippet
// needs) in the foreground: `caddy run --config <root>/Caddyfile --adapter caddyfile`, admin
// endpoint off, its HOME and XDG folders inside the root.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { toolPath } from '../process.ts'
import { type ServerCommand, type StartedServer, type StartOptions, startServer } from './launch.ts'

/**
 * The global options block every test Caddyfile starts with: no admin port, no automatic HTTPS,
 * nothing persisted; `extra` lines (tab-indented) go inside it, e.g. `servers { protocols … }`.
 */
export function caddyGlobalOptions(extra: readonly string[] = []): string {
  return ['{', '\tadmin off', '\tauto_https off', '\tpersist_config off', ...extra, '}'].join('\n')
}

/** `caddyGlobalOptions()` with nothing added. */
export const CADDY_GLOBAL_OPTIONS = caddyGlobalOptions()

/** The command that runs Caddy on `<root>/Caddyfile` (or `config`), HOME and XDG dirs under `root`. */
export function caddyCommand(root: string, config = join(root, 'Caddyfile')): ServerCommand {
  const base = ['--config', config, '--adapter', 'caddyfile']
  return {
    name: 'caddy',
    command: toolPath('caddy'),
    args: ['run', ...base],
    checkArgs: ['validate', ...base],
    env: { HOME: root, XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') },
  }
}

/**
 * Starts Caddy on 127.0.0.1: `config(port, root)` returns the site blocks (address
 * `http://127.0.0.1:<port>`), written after CADDY_GLOBAL_OPTIONS to `<root>/Caddyfile`.
 */
export async function startCaddy(
  config: (port: number, root: string) => string | Promise<string>,
  options: StartOptions = {},
): Promise<StartedServer> {
  return startServer('caddy', options, async (root, port) => {
    await writeFile(join(root, 'Caddyfile'), `${CADDY_GLOBAL_OPTIONS}\n${await config(port, root)}`)
    return caddyCommand(root)
  })
}
