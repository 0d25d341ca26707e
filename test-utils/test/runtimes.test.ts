// Where the e2e harness and the bench find Bun and Deno: from the npm packages that pin them. (The
// "missing" answer cannot be shown from here: pnpm's NODE_PATH makes both resolvable anywhere.)
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT, runtimeBinary } from '../src/index.ts'

const from = (folder: string): string => pathToFileURL(join(REPO_ROOT, folder, 'x.js')).href

describe('runtimeBinary', () => {
  it('finds bun and deno from the packages that depend on them', () => {
    for (const binary of ['bun', 'deno'] as const) {
      const found = runtimeBinary(binary, from('e2e'))
      expect('path' in found && existsSync(found.path), JSON.stringify(found)).toBe(true)
    }
  })

  it('runs node scripts with the current node', () => {
    expect(runtimeBinary('node', from('packages/core'))).toEqual({ path: process.execPath })
  })
})
