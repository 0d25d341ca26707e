// The source layout, checked on every run: no import cycle anywhere in packages/*/src (type
// imports included: a cycle through types is still two files that cannot be read apart), no
// source file over 300 lines, core's folders importing only the folders below them, and every
// package's public entries listing only documented names (public-names.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { publicEntries, publicNamesOf, undocumentedNames } from './public-names.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const PACKAGES = join(ROOT, 'packages')
const MAX_LINES = 300
/** The repository's docs/ pages: with a package's README, where its public names are documented. */
const DOCS = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.md'))
  .map((path) => readFileSync(join(ROOT, 'docs', path), 'utf8'))

/**
 * core's folders, lowest first: a file may import its own folder, the top-level shared files
 * and the folders before its own, never one after.
 */
const CORE_LAYERS = [
  'http',
  'codecs',
  'pool',
  'fs',
  'options',
  'manifest',
  'cache',
  'report',
  'deltas',
  'run',
  'pipeline',
]
/** Top-level files of core besides the entries: shared by every folder, importing none. */
const CORE_SHARED = ['errors.ts', 'paths.ts', 'debug.ts', 'logger.ts', 'hash.ts']

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(ts|mts|js|mjs)$/.test(path) && !path.endsWith('.d.ts'))
    .map((path) => join(dir, path))
    .filter((path) => statSync(path).isFile())
}

const FILES = readdirSync(PACKAGES)
  .map((name) => join(PACKAGES, name, 'src'))
  .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
  .flatMap(sourceFiles)

/** Relative imports and re-exports of a file (`import type` too), resolved to files. */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"`]*?from\s*['"](\.[^'"]+)['"]/g)].map(
    (m) => m[1]!,
  )
  const dynamic = [...text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map((m) => m[1]!)
  return [...specifiers, ...dynamic].map((specifier) => {
    const target = resolve(dirname(file), specifier)
    return target.replace(/\.(m?)js$/, '.$1ts')
  })
}

/** Every cycle's files (strongly connected components of more than one file, or a self-import). */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string): void => {
    indices.set(node, index)
    low.set(node, index++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue
      if (!indices.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!))
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort())
    }
  }
  for (const node of graph.keys()) if (!indices.has(node)) visit(node)
  return cycles
}

describe('source layout', () => {
  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ])
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']])
    expect(importsOf('/x/a.ts', "import type { T } from './b.js'\nexport { u } from '../c/d.js'\n")).toEqual([
      '/x/b.ts',
      '/c/d.ts',
    ])
  })

  it('has no import cycle in packages/*/src', () => {
    const graph = new Map(FILES.map((file) => [file, importsOf(file)]))
    const cycles = cyclesOf(graph).map((cycle) => cycle.map((file) => relative(ROOT, file)))
    expect(cycles).toEqual([])
  })

  it(`has no source file over ${MAX_LINES} lines`, () => {
    const long = FILES.map((file) => ({
      file: relative(ROOT, file),
      lines: readFileSync(file, 'utf8').split('\n').length,
    })).filter(({ lines }) => lines > MAX_LINES)
    expect(long).toEqual([])
  })

  it("keeps core's top level to its entries and a few shared files, and its folders layered", () => {
    const core = join(PACKAGES, 'core', 'src')
    const top = readdirSync(core).filter((name) => statSync(join(core, name)).isFile())
    expect(top.sort()).toEqual(['index.ts', 'internal.ts', ...CORE_SHARED].sort())
    const folders = readdirSync(core).filter((name) => statSync(join(core, name)).isDirectory())
    expect(folders.sort()).toEqual([...CORE_LAYERS].sort())
    const layerOf = (file: string): number => CORE_LAYERS.indexOf(relative(core, file).split('/')[0]!)
    const upward: string[] = []
    for (const file of FILES.filter((f) => f.startsWith(`${core}/`))) {
      const from = relative(core, file)
      if (from === 'index.ts' || from === 'internal.ts') continue
      for (const target of importsOf(file)) {
        const to = relative(core, target)
        const allowed = CORE_SHARED.includes(from)
          ? false
          : CORE_SHARED.includes(to) || layerOf(target) <= layerOf(file)
        if (!allowed) upward.push(`${from} -> ${to}`)
      }
    }
    expect(upward).toEqual([])
  })

  it('finds what a public entry exports and where each name is declared (the check itself)', () => {
    const names = publicNamesOf(join(PACKAGES, 'vite', 'src', 'index.ts'))
    expect(names.find((n) => n.name === 'preencode')).toMatchObject({ runtime: true, jsdoc: true })
    expect(names.find((n) => n.name === 'ServerConfigFile')).toMatchObject({ runtime: false, jsdoc: true })
    expect(names.find((n) => n.name === 'ServerConfigFile')?.declaredIn).toBe(
      'packages/server-config/src/config-files.ts',
    )
    const dir = mkdtempSync(join(tmpdir(), 'public-names-'))
    writeFileSync(
      join(dir, 'a.ts'),
      '/** Documented. */\nexport function a() {}\nexport const b = 1\nexport class C {}\n',
    )
    writeFileSync(join(dir, 'index.ts'), "export { a, b as bee, type C } from './a.js'\n")
    expect(publicNamesOf(join(dir, 'index.ts')).map(({ name, runtime, jsdoc }) => ({ name, runtime, jsdoc }))).toEqual([
      { name: 'a', runtime: true, jsdoc: true },
      { name: 'bee', runtime: true, jsdoc: false },
      { name: 'C', runtime: false, jsdoc: false },
    ])
    rmSync(dir, { recursive: true })
    const nuxt = publicNamesOf(join(PACKAGES, 'nuxt', 'src', 'index.ts'))
    expect(nuxt.find((n) => n.name === 'default')).toMatchObject({ runtime: true, jsdoc: true })
    expect(
      undocumentedNames([{ name: 'zap', runtime: true, jsdoc: true, declaredIn: 'x.ts' }], ['`zapper`', 'zap']),
    ).toEqual(['zap'])
    expect(
      undocumentedNames([{ name: 'zap', runtime: true, jsdoc: true, declaredIn: 'x.ts' }], ['a `zap()` b']),
    ).toEqual([])
  })

  // Every package's entries (package.json `exports`, `./internal` excepted): each name has a JSDoc
  // where it is declared, and each runtime name is shown (in code) in the package's README or docs/.
  it.each(publicEntries())('lists only documented names in $entry', ({ file, readme }) => {
    const names = publicNamesOf(file)
    expect(names.length).toBeGreaterThan(0)
    expect({
      notFound: names.filter((n) => !n.declaredIn).map((n) => n.name),
      withoutJsdoc: names.filter((n) => n.declaredIn && !n.jsdoc).map((n) => `${n.name} (${n.declaredIn})`),
      notInDocs: undocumentedNames(names, [readme, ...DOCS]),
    }).toEqual({ notFound: [], withoutJsdoc: [], notInDocs: [] })
  })
})
