// The source layout, checked on every run: no import cycle anywhere in packages/*/src (type
// imports included: a cycle through types is still two files that cannot be read apart), no
// source file over 300 lines, and core's folders importing only the folders below them.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const PACKAGES = join(ROOT, 'packages')
const MAX_LINES = 300

/**
 * core's folders, lowest first: a file may import its own folder, the top-level shared files
 * and the folders before its own, never one after.
 */
const CORE_LAYERS = ['http', 'codecs', 'fs', 'pool', 'options', 'manifest', 'cache', 'report', 'deltas', 'run', 'build']
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

  it("documents every name of core's public API where it is declared", () => {
    const core = join(PACKAGES, 'core', 'src')
    const index = readFileSync(join(core, 'index.ts'), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
    const names = [...index.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((m) =>
      m[1]!
        .split(',')
        .map((name) => name.replace(/^\s*type\s+/, '').trim())
        .filter(Boolean),
    )
    expect(names.length).toBeGreaterThan(60)
    const sources = FILES.filter((f) => f.startsWith(`${core}/`)).map((f) => readFileSync(f, 'utf8'))
    const undocumented = names.filter((name) => {
      const declaration = new RegExp(
        `((?:/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/\\s*\\n)?)export (?:async )?(?:function|const|interface|type|class) ${name}\\b`,
      )
      const found = sources.map((text) => declaration.exec(text)).find(Boolean)
      return !found?.[1]
    })
    expect(undocumented).toEqual([])
  })
})
