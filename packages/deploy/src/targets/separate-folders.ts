// A folder target must be a folder of its own: not the site, not inside it (the next compress
// would take the deployed copy for part of the site, and each deploy would copy it again), and
// not a folder holding the site (`--to /`, `--to ..`: the site would land among everything else
// there, and `--delete` would remove the rest). Compared after resolving symlinks.
import { realpath } from 'node:fs/promises'
import { basename, dirname, join, resolve, sep } from 'node:path'
import { userError } from '@preencode/core'

/** Throws a one-line user error when `target` is `site`, inside it, or holds it. */
export async function assertSeparateFolders(site: string, target: string, description: string): Promise<void> {
  const [siteReal, targetReal] = await Promise.all([realPathOf(site), realPathOf(target)])
  const fail = (why: string, fix: string) =>
    userError('deploy', `Cannot deploy to ${description}: ${why}. ${fix}`, { code: 'BAD_INPUT' })
  if (siteReal === targetReal) throw fail(`it is the site folder ${site} itself`, 'Deploy to another folder.')
  if (isInside(targetReal, siteReal))
    throw fail(
      `it is inside the site folder ${site} (the deployed copy would become part of the site)`,
      'Deploy to a folder outside the site.',
    )
  if (isInside(siteReal, targetReal))
    throw fail(
      `it holds the site folder ${site}${targetReal === sep ? ' (it is the root of the file system)' : ''}`,
      'Deploy to a folder of its own.',
    )
}

function isInside(child: string, parent: string): boolean {
  return child.startsWith(parent.endsWith(sep) ? parent : parent + sep)
}

/** The real path of `path`, or of its nearest existing ancestor with the rest appended. */
async function realPathOf(path: string): Promise<string> {
  const rest: string[] = []
  for (let current = resolve(path); ; current = dirname(current)) {
    try {
      return join(await realpath(current), ...rest.reverse())
    } catch {
      if (dirname(current) === current) return resolve(path)
      rest.push(basename(current))
    }
  }
}
