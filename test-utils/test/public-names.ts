// What each package's public entries export, read from the sources: every name an entry lists
// (its export lists, its own declarations, `export default`), followed through re-exports and
// imports (`./x.js`, `@preencode/<pkg>`) to the declaration, with whether a JSDoc block sits on
// it and whether the name exists at run time (a function, class, const or enum exported without
// `type`). The architecture test checks these against the JSDoc and the package's docs.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')
const PACKAGES = join(ROOT, 'packages')

/** One exported name of an entry. `declaredIn` is empty when the declaration was not found. */
export interface PublicName {
  name: string
  runtime: boolean
  jsdoc: boolean
  declaredIn: string
}

interface Declaration {
  runtime: boolean
  jsdoc: boolean
  file: string
}

const JSDOC = String.raw`(/\*\*(?:(?!\*/)[\s\S])*\*/\s*\n)?`
const RUNTIME_KINDS = new Set(['function', 'function*', 'const', 'let', 'class', 'abstract class', 'enum'])

/** Each package's entries from its package.json `exports` (`./internal` is no public API). */
export function publicEntries(): { entry: string; file: string; readme: string }[] {
  return readdirSync(PACKAGES).flatMap((dir) => {
    const manifest = JSON.parse(readFileSync(join(PACKAGES, dir, 'package.json'), 'utf8')) as {
      name: string
      exports: Record<string, string | { default: string }>
    }
    const readme = readFileSync(join(PACKAGES, dir, 'README.md'), 'utf8')
    return Object.entries(manifest.exports)
      .filter(([subpath, target]) => typeof target !== 'string' && subpath !== './internal')
      .map(([subpath, target]) => ({
        entry: manifest.name + subpath.slice(1),
        file: join(PACKAGES, dir, sourceOf((target as { default: string }).default)),
        readme,
      }))
  })
}

function sourceOf(distPath: string): string {
  return distPath.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')
}

/** The file a specifier names: a relative path, or a workspace package (its `exports`). */
function moduleFile(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return resolve(dirname(from), specifier).replace(/\.(m?)js$/, '.$1ts')
  const match = /^@preencode\/([^/]+)(\/.*)?$/.exec(specifier)
  if (!match) return undefined
  const manifest = JSON.parse(readFileSync(join(PACKAGES, match[1]!, 'package.json'), 'utf8')) as {
    exports: Record<string, { default: string }>
  }
  const target = manifest.exports[`.${match[2] ?? ''}`]
  return target && join(PACKAGES, match[1]!, sourceOf(target.default))
}

/** `a`, `type a`, `a as b` of an export or import list: [local name, exported name, type-only]. */
function specifiers(list: string, typeOnly: boolean): [string, string, boolean][] {
  return list
    .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const type = typeOnly || item.startsWith('type ')
      const [local, exported = local] = item.replace(/^type\s+/, '').split(/\s+as\s+/)
      return [local!, exported!, type]
    })
}

/** Where `name` is declared, starting from `file` (which declares, re-exports or imports it). */
function declarationOf(file: string, name: string, seen = new Set<string>()): Declaration | undefined {
  if (seen.has(`${file}#${name}`) || !existsSync(file)) return undefined
  seen.add(`${file}#${name}`)
  const text = readFileSync(file, 'utf8')
  const kinds = 'function\\*?|const|let|class|abstract class|interface|type|enum'
  const own = new RegExp(`${JSDOC}^(?:export )?(?:declare )?(?:async )?(${kinds}) ${name}\\b`, 'm').exec(text)
  if (own && name !== 'default') return { runtime: RUNTIME_KINDS.has(own[2]!), jsdoc: !!own[1], file }
  if (name === 'default') {
    const def = new RegExp(`${JSDOC}^export default (?:(?:async )?(function|class)\\b|(\\w+)$)`, 'm').exec(text)
    if (def?.[3]) return declarationOf(file, def[3], seen)
    if (def) return { runtime: true, jsdoc: !!def[1], file }
  }
  for (const m of text.matchAll(/(?:^|\n)(?:export|import) (type )?\{([^}]*)\}(?:\s*from\s*['"]([^'"]+)['"])?/g)) {
    for (const [local, exported, type] of specifiers(m[2]!, !!m[1])) {
      // `export { a as b }` and `import { a as b }` both bind `b` to the `a` of the source.
      if (exported !== name) continue
      const source = m[3] ? moduleFile(file, m[3]) : file
      const found = source && declarationOf(source, local, seen)
      if (found) return { ...found, runtime: found.runtime && !type }
    }
  }
  return undefined
}

/** Every name `entry` exports, with its declaration. `export *` is refused: list the names. */
export function publicNamesOf(entry: string): PublicName[] {
  const text = readFileSync(entry, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
  if (/export \*/.test(text)) throw new Error(`${relative(ROOT, entry)}: export * hides the names; list them`)
  const listed = [...text.matchAll(/export (type )?\{([^}]*)\}/g)].flatMap((m) =>
    specifiers(m[2]!, !!m[1]).map(([, exported]) => exported),
  )
  const declared = [
    ...text.matchAll(/export (?:declare )?(?:async )?(?:function\*?|const|let|class|interface|type|enum) (\w+)/g),
  ].map((m) => m[1]!)
  const names = [...new Set([...listed, ...declared, ...(/export default\b/.test(text) ? ['default'] : [])])]
  return names.map((name) => {
    const found = declarationOf(entry, name)
    return {
      name,
      runtime: found?.runtime ?? false,
      jsdoc: found?.jsdoc ?? false,
      declaredIn: found ? relative(ROOT, found.file) : '',
    }
  })
}

/** The runtime names (`default` aside) that no code span (lines may wrap) or code block of `docs` shows. */
export function undocumentedNames(names: readonly PublicName[], docs: readonly string[]): string[] {
  const code = docs
    .flatMap((text) => [...text.matchAll(/```[\s\S]*?```|(`+)(?:[^`]|[^`][\s\S]*?[^`])\1(?!`)/g)].map((m) => m[0]))
    .join('\n')
  return names
    .filter(({ name, runtime }) => runtime && name !== 'default')
    .filter(({ name }) => !new RegExp(`(?<![\\w$])${name.replace('$', '\\$')}(?![\\w$])`).test(code))
    .map(({ name }) => name)
}
