// @preencode/core/internal holds what the other packages' sources and the bench use beyond core's
// public API, and nothing else: tests import core's sources by path (Vitest runs the sources), so
// no name is exported for a test, and a sibling imports the public names from @preencode/core.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const CORE = join(ROOT, 'packages', 'core', 'src')
/**
 * The most runtime names the internal entry may hold (issue 27: 40). Issue 38 moved three rules
 * into core so that each has one home — the `[preencode]` prefix, the S3 client's set-up and the
 * manifest path rule (`pathsOutsideSite`, `refuseManifestOutsideSite`) — instead of copies in the
 * packages: 42.
 */
const MAX_INTERNAL_NAMES = 42
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'app'])

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sources(path)
    return /\.(ts|mts)$/.test(entry.name) && !/\.(d|test)\.ts$/.test(entry.name) ? [path] : []
  })
}

/** The text of every source outside core that imports the internal entry: the other packages' src and the bench. */
function consumers(): string[] {
  const packages = readdirSync(join(ROOT, 'packages')).filter((name) => name !== 'core')
  return [...packages.flatMap((name) => sources(join(ROOT, 'packages', name, 'src'))), ...sources(join(ROOT, 'bench'))]
    .map((path) => readFileSync(path, 'utf8'))
    .filter((text) => text.includes('@preencode/core/internal'))
}

/** Every name `internal.ts` exports, types included. */
function exportedNames(): string[] {
  const text = readFileSync(join(CORE, 'internal.ts'), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
  expect(text).not.toMatch(/export \*/)
  return [...text.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((name) => name.replace(/^\s*type\s+/, '').trim())
      .filter(Boolean),
  )
}

describe("core's internal entry", () => {
  it(`holds at most ${MAX_INTERNAL_NAMES} runtime names, none of them the public index's`, async () => {
    const internal = Object.keys(await import(pathToFileURL(join(CORE, 'internal.ts')).href))
    const index = new Set(Object.keys(await import(pathToFileURL(join(CORE, 'index.ts')).href)))
    expect(internal.filter((name) => index.has(name))).toEqual([])
    expect(internal.length).toBeLessThanOrEqual(MAX_INTERNAL_NAMES)
  })

  it("exports only names another package's sources or the bench use", () => {
    const texts = consumers()
    const names = exportedNames()
    expect(names.length).toBeGreaterThan(0)
    const unused = names.filter((name) => !texts.some((text) => new RegExp(`\\b${name}\\b`).test(text)))
    expect(unused).toEqual([])
  })
})
