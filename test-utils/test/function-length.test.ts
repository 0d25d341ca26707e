// Functions that fit on a screen, checked on every run: no function in packages/*/src longer than
// 80 lines of code. A line of code has something on it besides comments, string or template text
// and commas, so the text of a generated config (nginx, VCL and Apache rules written as template
// strings or arrays of lines) does not count; nested functions count in the function around them.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { parseSync } from 'vite'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const PACKAGES = join(ROOT, 'packages')
const MAX_CODE_LINES = 80

interface Span {
  type: string
  start: number
  end: number
  value?: unknown
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'])

function sourceFiles(): string[] {
  return readdirSync(PACKAGES)
    .map((name) => join(PACKAGES, name, 'src'))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    .flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((path) => /\.(ts|mts)$/.test(path) && !path.endsWith('.d.ts'))
        .map((path) => join(dir, path)),
    )
}

/** Every node of an ESTree program, depth first, with the name its parent gives it if any. */
function* nodesOf(node: unknown, name = ''): Generator<{ node: Span; name: string }> {
  if (Array.isArray(node)) {
    for (const child of node) yield* nodesOf(child, name)
    return
  }
  if (node === null || typeof node !== 'object') return
  const record = node as Record<string, unknown>
  if (typeof record.type !== 'string') return
  const own = nameOf(record) ?? name
  yield { node: record as unknown as Span, name: own }
  for (const [key, child] of Object.entries(record)) {
    if (key !== 'type' && key !== 'start' && key !== 'end') yield* nodesOf(child, own)
  }
}

/** The name a declaration, variable, method or property gives the function under it. */
function nameOf(node: Record<string, unknown>): string | undefined {
  const key = (node.id ?? node.key) as { name?: string } | undefined
  return typeof key?.name === 'string' ? key.name : undefined
}

/** For each line (0-based), whether it holds code: a character outside comments, text and commas. */
function codeLines(text: string, hidden: { start: number; end: number }[]): boolean[] {
  // Offsets are UTF-16 code units, as split('') gives.
  const chars = text.split('')
  for (const { start, end } of hidden) for (let i = start; i < end; i++) if (chars[i] !== '\n') chars[i] = ' '
  return chars
    .join('')
    .split('\n')
    .map((line) => line.replace(/[\s,]/g, '') !== '')
}

function lineOf(text: string, offset: number): number {
  let line = 0
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

/** Every function of a file with its code lines, longest first. */
function functionLengths(file: string, text: string): { name: string; lines: number }[] {
  const parsed = parseSync(file, text, { lang: 'ts', sourceType: 'module' })
  if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]!.message}`)
  const all = [...nodesOf(parsed.program)]
  const texts = all
    .map(({ node }) => node)
    .filter((node) => node.type === 'TemplateLiteral' || (node.type === 'Literal' && typeof node.value === 'string'))
  const isCode = codeLines(text, [...parsed.comments, ...texts])
  return all
    .filter(({ node }) => FUNCTION_TYPES.has(node.type))
    .map(({ node, name }) => {
      let lines = 0
      for (let line = lineOf(text, node.start); line <= lineOf(text, node.end); line++) if (isCode[line]) lines++
      return { name: name || '(anonymous)', lines }
    })
    .sort((a, b) => b.lines - a.lines)
}

describe('function length', () => {
  it('counts code lines, not comments, blank lines or template text', () => {
    const sample = [
      'export function config(name: string): string {',
      '  // a comment',
      '',
      '  const head = `server {',
      '    listen 80;',
      '  }`',
      "  const lines = ['a',",
      "    'b',",
      '  ]',
      '  return head + name + lines',
      '}',
    ].join('\n')
    expect(functionLengths('sample.ts', sample)).toEqual([{ name: 'config', lines: 6 }])
  })

  it(`keeps every function in packages/*/src to ${MAX_CODE_LINES} lines of code`, () => {
    const long = sourceFiles().flatMap((file) =>
      functionLengths(file, readFileSync(file, 'utf8'))
        .filter(({ lines }) => lines > MAX_CODE_LINES)
        .map(({ name, lines }) => `${relative(ROOT, file)}: ${name} (${lines})`),
    )
    expect(long).toEqual([])
  })
})
