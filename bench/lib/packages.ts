// The workspace packages the bench measures, imported by name with their own types. A package
// that is not built yet (no dist/) makes the part that needs it print "skipped: <why>" instead of
// crashing the run.
import { firstLine } from './util.ts'

/** Each entry point the bench loads, typed by the package's own declarations. */
export interface Packages {
  '@preencode/core': typeof import('@preencode/core')
  '@preencode/core/internal': typeof import('@preencode/core/internal')
  '@preencode/deploy': typeof import('@preencode/deploy')
  '@preencode/deploy/s3': typeof import('@preencode/deploy/s3')
  '@preencode/server-config': typeof import('@preencode/server-config')
  '@preencode/vite': typeof import('@preencode/vite')
}

/**
 * Imports a workspace package if it is built and exports what the bench needs; otherwise
 * returns the reason, which the part prints as "skipped: <why>".
 */
export async function importBuilt<K extends keyof Packages>(
  specifier: K,
  needs: (keyof Packages[K] & string)[],
): Promise<{ mod: Packages[K] } | { why: string }> {
  let mod: Record<string, unknown>
  try {
    mod = (await import(specifier)) as Record<string, unknown>
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      String((error as Error).message).includes(specifier)
    ) {
      return { why: `${specifier} is not built yet (no dist/)` }
    }
    return { why: `${specifier} failed to import: ${firstLine(error)}` }
  }
  const missing = needs.filter((name) => !(name in mod) || mod[name] === undefined)
  if (missing.length) return { why: `${specifier} does not export ${missing.join(', ')} yet` }
  return { mod: mod as Packages[K] }
}
