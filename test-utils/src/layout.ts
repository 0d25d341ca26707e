// A package's folders and what each may import, read from its source: used by the packages'
// layout tests so a new import that breaks the order or closes a cycle fails naming the file.
// Relative `import`, `import type`, `export … from` and `import()` all count.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** What broke the layout; every list empty when it holds. */
export interface LayoutViolations {
  /** Files in a folder the rules do not name. */
  unknownFolders: string[]
  /** `file -> import` across folders the rules do not allow. */
  upward: string[]
  /** Import cycles, as `a -> b -> a`. */
  cycles: string[]
}

/**
 * Checks `src` against `mayImport` (folder -> folders below it it may import). Top-level files
 * may import any folder; a folder may import itself and the folders listed.
 */
export function layoutViolations(
  src: string,
  mayImport: Readonly<Record<string, readonly string[]>>,
): LayoutViolations {
  const files = sources(src)
  const known = new Set(files)
  // An import naming no source file is generated code's (a template's `import './x.js'`); tsc
  // checks the real ones.
  const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => known.has(target))]))
  const folderOf = (file: string): string => {
    const rel = relative(src, file).split('\\').join('/')
    return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '.'
  }
  const name = (file: string): string => relative(src, file).split('\\').join('/')
  const upward: string[] = []
  for (const [file, targets] of graph) {
    const from = folderOf(file)
    if (from === '.') continue
    for (const target of targets) {
      const to = folderOf(target)
      if (to !== from && !(mayImport[from] ?? []).includes(to)) upward.push(`${name(file)} -> ${name(target)}`)
    }
  }
  const cycles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === 'done') return
    if (state.get(file) === 'open') {
      cycles.push([...path.slice(path.indexOf(file)), file].map(name).join(' -> '))
      return
    }
    state.set(file, 'open')
    for (const target of graph.get(file) ?? []) visit(target, [...path, file])
    state.set(file, 'done')
  }
  for (const file of files) visit(file, [])
  return {
    unknownFolders: files.filter((file) => folderOf(file) !== '.' && !(folderOf(file) in mayImport)).map(name),
    upward,
    cycles,
  }
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)]
    .map((match) => match[1]!)
    .filter((spec) => /\.(js|ts)$/.test(spec))
    .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
}
