// The one rule that tells a host which ignores uploaded .br/.gz/.zst files, from the variables
// each host documents for its builds.

import { detectSidecarIgnoringHost, resolveBuildOptions, sidecarsSkippedMessage } from '@preencode/core'
import { describe, expect, it } from 'vitest'

describe('detectSidecarIgnoringHost', () => {
  it.each([
    [{ NETLIFY: 'true' }, { name: 'Netlify', variable: 'NETLIFY=true' }],
    [
      { VERCEL: '1', CI: '1' },
      { name: 'Vercel', variable: 'VERCEL=1' },
    ],
    [
      { CF_PAGES: '1', CF_PAGES_BRANCH: 'main' },
      { name: 'Cloudflare Pages', variable: 'CF_PAGES=1' },
    ],
  ])('%j -> %j', (env, host) => {
    expect(detectSidecarIgnoringHost(env)).toEqual(host)
  })

  it.each([
    [{}],
    [{ CI: 'true' }],
    // Every GitHub Actions job, Pages workflows or not: nothing documented tells them apart.
    [{ GITHUB_ACTIONS: 'true', CI: 'true' }],
    [{ NETLIFY: 'false' }],
    [{ NETLIFY: '1' }],
    [{ VERCEL: '' }],
    [{ VERCEL: '0' }],
    [{ CF_PAGES: 'true' }],
    [{ GITLAB_CI: 'true' }],
  ])('%j -> no such host', (env) => {
    expect(detectSidecarIgnoringHost(env)).toBeUndefined()
  })

  it('says it in one line: the host, the variable, that nothing was written, and how to force it', () => {
    const line = sidecarsSkippedMessage({ name: 'Netlify', variable: 'NETLIFY=true' }, '--force')
    expect(line).not.toContain('\n')
    expect(line).toMatch(
      /^preencode: Netlify \(NETLIFY=true\) compresses responses itself and ignores \.br\/\.gz\/\.zst files, so none were written\. --force writes them anyway, for what serves them: a Cloudflare Worker, .*GitLab Pages/,
    )
  })
})

describe('the force option', () => {
  it('is a boolean, false by default, and never reaches the compression options', () => {
    const context = { root: process.cwd(), component: 'vite' } as const
    expect(resolveBuildOptions({}, context).force).toBe(false)
    expect(resolveBuildOptions({ force: true }, context).force).toBe(true)
    expect(() => resolveBuildOptions({ force: 'yes' as unknown as boolean }, context)).toThrow(
      '`force` is "yes"; it accepts true or false.',
    )
  })
})
