import { existsSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'

/**
 * Where the persistent cache lives when the user names no directory: the nearest project's
 * `node_modules/.cache/preencode` (where Vite and Babel keep theirs, and what CI caches keep),
 * found from the site, not from the working directory, so running from another folder still
 * hits it. Without a project (a Hugo or Jekyll site has no `package.json`), the user's cache
 * folder. Never creates a `node_modules` where there was none.
 *
 * A project is a folder with both `package.json` and `node_modules/`: the nearest such folder
 * at or above `from` wins.
 */
export function defaultCacheDir(from: string, env: NodeJS.ProcessEnv = process.env): string {
  const project = nearestInstalledProject(resolve(from))
  return project === undefined ? userCacheDir(env) : join(project, 'node_modules', '.cache', 'preencode')
}

/** `$XDG_CACHE_HOME/preencode`, else `~/.cache/preencode` (`%LOCALAPPDATA%\preencode\Cache` on Windows). */
function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  // The XDG spec says a relative value is invalid and must be ignored.
  const xdg = env.XDG_CACHE_HOME
  if (xdg && isAbsolute(xdg)) return join(xdg, 'preencode')
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'preencode', 'Cache')
  return join(env.HOME || homedir(), '.cache', 'preencode')
}

function nearestInstalledProject(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && isDirectory(join(dir, 'node_modules'))) return dir
    if (dirname(dir) === dir) return undefined
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
