// Runs a framework fixture of playground/frameworks/ with its own package script (`pnpm run
// build`, `pnpm run deploy`), and reads back what it left on disk: every page, script and
// stylesheet of the final output with its manifest entry and its variants.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { MANIFEST_FILENAME, type Manifest, type ManifestFile } from '@preencode/core'
import { REPO_ROOT } from '@preencode/test-utils'
import { decode } from '../harness/http.ts'
import { ENCODING_OF_SUFFIX, listFiles, VARIANT_SUFFIXES } from './deployed.ts'

export const FIXTURES_DIR = join(REPO_ROOT, 'playground', 'frameworks')
const PAGE_ASSET_EXTENSIONS = new Set(['.html', '.js', '.mjs', '.css'])

/** The Apache config the integrations write into their output (`serverConfigs`). */
export const HTACCESS = '.htaccess'

/** Telemetry off: nothing but the package registries is reachable here, and tests should not phone home. */
const QUIET_ENV = { ASTRO_TELEMETRY_DISABLED: '1', NUXT_TELEMETRY_DISABLED: '1', NO_COLOR: '1' }

/** Runs a command in a fixture; resolves with its exit code and everything it printed. */
export function run(cwd: string, command: string, args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...QUIET_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString()
    })
    child.stderr.on('data', (data: Buffer) => {
      output += data.toString()
    })
    child.once('error', fail)
    child.once('close', (status) => done({ status, output }))
  })
}

export interface OutputFile {
  path: string
  bytes: Buffer
  entry: ManifestFile | undefined
  /** Variants found on disk beside it, by Content-Encoding token, decoded. */
  decoded: Map<string, Buffer>
}

/** Every HTML page, script and stylesheet of `root`, with its manifest entry and decoded variants. */
export async function readOutput(root: string): Promise<{ manifest: Manifest; files: OutputFile[] }> {
  const manifest = JSON.parse(await readFile(join(root, MANIFEST_FILENAME), 'utf8')) as Manifest
  return { manifest, files: await readPageAssets(root, manifest) }
}

/** The pages, scripts and stylesheets under `root` with their decoded variants (a deployed copy has no manifest). */
export async function readPageAssets(root: string, manifest?: Manifest): Promise<OutputFile[]> {
  const byPath = new Map(manifest?.files.map((file) => [file.path, file]))
  const names = new Set(await listFiles(root))
  const files: OutputFile[] = []
  for (const path of [...names].sort()) {
    if (!PAGE_ASSET_EXTENSIONS.has(extname(path))) continue
    const bytes = await readFile(join(root, path))
    const decoded = new Map<string, Buffer>()
    for (const suffix of VARIANT_SUFFIXES) {
      if (!names.has(path + suffix)) continue
      const encoding = ENCODING_OF_SUFFIX[suffix]!
      decoded.set(encoding, decode(await readFile(join(root, path + suffix)), encoding))
    }
    files.push({ path, bytes, entry: byPath.get(path), decoded })
  }
  return files
}

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex')
