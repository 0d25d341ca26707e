// Issue 30.1, the plan's part: which deltas a deploy deletes whatever `delete` and `keep` say
// (those that may not decode to the file beside them), and which follow the grace period.

import type { Manifest, ManifestFile } from '@preencode/core'
import { type DeployState, planDeploy, type RemoteObject } from '@preencode/deploy'
import { describe, expect, it } from 'vitest'

function file(path: string, cacheClass: ManifestFile['cacheClass']): ManifestFile {
  return {
    path,
    size: 100,
    sha256: `a-${path}`,
    mtimeMs: 1_700_000_000_000,
    contentType: 'text/plain; charset=utf-8',
    cacheClass,
    cacheControl: cacheClass === 'html' ? 'no-cache' : 'public, max-age=3600',
    originalOnDisk: true,
    variants: [],
  }
}

const manifest: Manifest = {
  version: 1,
  generator: 'test',
  formats: ['gzip', 'brotli'],
  files: [file('index.html', 'html'), file('favicon.ico', 'default')],
}

const remoteOf = (entries: Record<string, string | undefined>): Map<string, RemoteObject> =>
  new Map(Object.entries(entries).map(([k, sha256]) => [k, { sha256 }]))

describe('planDeploy and deltas', () => {
  it('deletes deltas that may not decode to the file beside them, whatever delete and keep say (issue 30.1)', () => {
    const id = (c: string) => `${c.repeat(43)}=`
    const delta = (original: string, c: string) =>
      `${original}.dict/${id(c)}${original.slice(original.lastIndexOf('.'))}.dcb`
    const leftover = delta('index.html', 'a') // not named by the live deploy: an older deploy's
    const rewritten = delta('index.html', 'b') // named by it, but index.html changes now
    const chunk = 'assets/old-Zz9Yy8Xx.js' // a removed chunk and its delta: valid while it stays
    const chunkDelta = delta(chunk, 'c')
    // favicon.ico unchanged, but the new site does not list this delta: it goes (issue 36.1, one
    // rule for variants and deltas: only what the site lists beside its file stays).
    const favicon = delta('favicon.ico', 'd')
    const state: DeployState = {
      version: 1,
      objects: {},
      deploys: [{ id: 'a', time: 1000, keys: [rewritten, chunk, chunkDelta, favicon, 'favicon.ico'] }],
    }
    const remote = remoteOf({
      [leftover]: 'x',
      [rewritten]: 'x',
      [chunk]: 'x',
      [chunkDelta]: 'x',
      [favicon]: 'x',
      'index.html': 'old-page',
      'favicon.ico': 'a-favicon.ico',
    })
    const plan = (options: Parameters<typeof planDeploy>[2]) =>
      planDeploy(manifest, { objects: remote, state }, { ...options, now: 2000 })
    // delete off, or a grace period: only the outdated deltas go.
    for (const options of [{}, { delete: true, keep: { deploys: 1 } }, { delete: true, keep: { maxAgeMs: 1e9 } }]) {
      expect(plan(options).deletions, JSON.stringify(options)).toEqual([leftover, rewritten, favicon].sort())
      expect(plan(options).kept).toEqual([chunk, chunkDelta].sort())
    }
    // delete with no grace period: everything stale.
    expect(plan({ delete: true }).deletions).toEqual([leftover, rewritten, chunk, chunkDelta, favicon].sort())
    // Without a deploy state nothing proves a delta current: every unlisted one goes.
    expect(planDeploy(manifest, { objects: remote }).deletions).toEqual(
      [leftover, rewritten, chunkDelta, favicon].sort(),
    )
  })
})
