// The package's folders and what each may import: generators, the Node runtime and the HTTP
// checker are separate rooms, each importing only rooms below it, with no import cycle (type-only
// imports included). A new import that breaks the order fails here, naming the file.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '../src')

/** Folder -> folders it may import besides itself. The top-level files (registry, render, config-files, index) may import all. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  http: [],
  shared: ['http'],
  nginx: ['shared', 'http'],
  apache: ['shared', 'http'],
  caddy: ['shared', 'http'],
  cloudfront: ['shared', 'http'],
  varnish: ['shared', 'http'],
  cloudflare: ['shared', 'http'],
  node: ['shared', 'http'],
  verify: [],
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Relative imports of a file (`import`, `import type`, `export … from`, `import()`), as source paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!)
  return specs
    .filter((spec) => !spec.includes('preencode-'))
    .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
}

const folderOf = (file: string): string => {
  const rel = relative(SRC, file).split('\\').join('/')
  return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '.'
}

const files = sources(SRC)
const graph = new Map(files.map((file) => [file, importsOf(file)]))

describe('server-config layout', () => {
  it('puts every file in a known folder or at the top', () => {
    const unknown = files.map(folderOf).filter((folder) => folder !== '.' && !(folder in MAY_IMPORT))
    expect(unknown).toEqual([])
  })

  it('imports only folders below', () => {
    const wrong: string[] = []
    for (const [file, targets] of graph) {
      const from = folderOf(file)
      if (from === '.') continue
      for (const target of targets) {
        const to = folderOf(target)
        if (to !== from && !MAY_IMPORT[from]!.includes(to))
          wrong.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('has no import cycle', () => {
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' -> '))
        return
      }
      state.set(file, 'open')
      for (const target of graph.get(file) ?? []) visit(target, [...path, file])
      state.set(file, 'done')
    }
    for (const file of files) visit(file, [])
    expect(cycles).toEqual([])
  })

  it('resolves every relative import to a source file', () => {
    const missing = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => !graph.has(target)).map((target) => `${relative(SRC, file)} -> ${target}`),
    )
    expect(missing).toEqual([])
  })
})
