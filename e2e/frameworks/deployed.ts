// The folder a framework deploys, looked at as a server would: which files preencode must have
// compressed (compressible, THRESHOLD or more), which of them lack a variant, and which variants
// are stale (the original is gone, or the variant does not decode to its bytes).
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { isCompressible, MANIFEST_FILENAME } from '@preencode/core'
import { decode } from '../harness/http.ts'

/** The default `threshold`: smaller files get no variants, on purpose. */
export const THRESHOLD = 1024
export const VARIANT_SUFFIXES = ['.gz', '.br', '.zst']
export const ENCODING_OF_SUFFIX: Record<string, string> = { '.gz': 'gzip', '.br': 'br', '.zst': 'zstd' }

export interface DeployedFolder {
  /** Files a server sends that preencode compresses (by its type, THRESHOLD bytes or more). */
  eligible: string[]
  /** Eligible files without every variant, with the suffixes they lack. */
  missing: string[]
  /** Variants whose original is gone or differs from their decoded bytes. */
  stale: string[]
}

/** Every file under `root`, relative, with `/` separators. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort()
}

/** Dotfiles and dot-folders (`.vite/`, `.htaccess`, the manifest): servers never send them. */
const hidden = (path: string): boolean => path.split('/').some((segment) => segment.startsWith('.'))
/** RFC 9842 deltas (`app.js.dict/<hash>.js.dcb`) are checked by the dictionary suites. */
const delta = (path: string): boolean => /\.dict\//.test(path)
const suffixOf = (path: string): string | undefined => VARIANT_SUFFIXES.find((suffix) => path.endsWith(suffix))

export async function inspectDeployed(root: string): Promise<DeployedFolder> {
  const files = (await listFiles(root)).filter((path) => path !== MANIFEST_FILENAME && !delta(path))
  const present = new Set(files)
  const folder: DeployedFolder = { eligible: [], missing: [], stale: [] }
  for (const path of files) {
    const suffix = suffixOf(path)
    if (suffix) {
      const original = path.slice(0, -suffix.length)
      if (!present.has(original) || !(await decodesTo(root, path, original, suffix))) folder.stale.push(path)
      continue
    }
    if (hidden(path) || !isCompressible(path)) continue
    if ((await readFile(join(root, path))).length < THRESHOLD) continue
    folder.eligible.push(path)
    const lacks = VARIANT_SUFFIXES.filter((variant) => !present.has(path + variant))
    if (lacks.length > 0) folder.missing.push(`${path} (no ${lacks.join(' ')})`)
  }
  return folder
}

async function decodesTo(root: string, variant: string, original: string, suffix: string): Promise<boolean> {
  const bytes = await readFile(join(root, original))
  try {
    return decode(await readFile(join(root, variant)), ENCODING_OF_SUFFIX[suffix]).equals(bytes)
  } catch {
    return false
  }
}

/**
 * How each host prints a preencode warning: the Vite plugin `[preencode] …`, the CLI `warning: …`,
 * Astro `[WARN] [@preencode/astro] …`, Nuxt (consola) `[@preencode/nuxt] ⚠ …` or `WARN`.
 */
export const WARNING_LINE = /\[preencode\]|^\s*warning: |(?=.*preencode).*(\[WARN\]|⚠|\bWARN\b)/

/** `text` as a regular expression that matches it literally. */
export const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A line of a clack box (Storybook's log): `▲  text` opens it, `│  text` continues it. */
const BOX_OPENING = /^[▲■◇◆●]\s{2}\S/
const BOX_CONTINUATION = /^│\s{2}(\S.*)$/

/**
 * A build's output as lines, colours removed; a line Storybook's logger wrapped in its box at 80
 * columns (`▲  Vite [preencode] … changed` then `│  or removed …`) is joined back into one.
 */
export function outputLines(output: string): string[] {
  const lines: string[] = []
  let inBox = false
  for (const line of stripVTControlCharacters(output).split('\n')) {
    const continued = BOX_CONTINUATION.exec(line)
    if (inBox && continued) {
      lines[lines.length - 1] += ` ${continued[1]}`
      continue
    }
    inBox = BOX_OPENING.test(line)
    lines.push(line)
  }
  return lines
}

/** The preencode warning lines of a build's output (colours removed) that are not among the intended ones. */
export function unintendedWarnings(output: string, intended: readonly RegExp[] = []): string[] {
  return outputLines(output)
    .filter((line) => WARNING_LINE.test(line))
    .filter((line) => !intended.some((pattern) => pattern.test(line)))
}
