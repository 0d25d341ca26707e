// Where each JavaScript runtime's binary is on this machine, for the e2e runtimes projects and
// the bench's runtimes part. Bun and Deno are npm packages (pinned in e2e/ and bench/) whose own
// postinstall is not run (pnpm-workspace.yaml allowBuilds): the binary is taken from the
// platform package they depend on (`@oven/bun-linux-x64`, `@deno/linux-x64-glibc`).
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** Which binary runs a server script. */
export type RuntimeBinary = 'node' | 'bun' | 'deno'

/** The platform packages the npm `bun` and `deno` packages carry, by `${platform}-${arch}`. */
const PLATFORM_BINARIES: Record<Exclude<RuntimeBinary, 'node'>, Record<string, [string, string]>> = {
  bun: { 'linux-x64': ['@oven/bun-linux-x64', 'bin/bun'], 'linux-arm64': ['@oven/bun-linux-aarch64', 'bin/bun'] },
  deno: { 'linux-x64': ['@deno/linux-x64-glibc', 'deno'], 'linux-arm64': ['@deno/linux-arm64-glibc', 'deno'] },
}

/**
 * The binary's path, or why it is missing on this machine. `from` is a file of the package that
 * depends on `bun`/`deno` (its `import.meta.url`): pnpm resolves them from there only.
 */
export function runtimeBinary(binary: RuntimeBinary, from: string): { path: string } | { missing: string } {
  if (binary === 'node') return { path: process.execPath }
  const platform = `${process.platform}-${process.arch}`
  const entry = PLATFORM_BINARIES[binary][platform]
  if (!entry) return { missing: `${binary}: no platform package known for ${platform}` }
  const [name, file] = entry
  // Resolved from the npm package (`bun`, `deno`) the way its own postinstall would.
  const outer = resolveFrom(from, `${binary}/package.json`)
  if (!outer) return { missing: `${binary}: the npm package \`${binary}\` is not installed (pnpm install)` }
  const inner = resolveFrom(outer, `${name}/package.json`)
  if (!inner) return { missing: `${binary}: its platform package ${name} is not installed (pnpm install)` }
  const path = join(dirname(inner), file)
  return existsSync(path) ? { path } : { missing: `${binary}: ${path} is not there` }
}

function resolveFrom(from: string, specifier: string): string | undefined {
  try {
    return createRequire(from).resolve(specifier)
  } catch {
    return undefined
  }
}
