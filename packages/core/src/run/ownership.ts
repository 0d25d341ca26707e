import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CODECS, type Format } from '../codecs/table.js'
import { userError } from '../errors.js'
import { withOpenFiles } from '../fs/open-files.js'
import { sha256Hex } from '../hash.js'
import { skipReason } from './eligibility.js'
import { encodeWithCache } from './encode-with-cache.js'
import { type FileJob, type FileJobContext, isWorthWriting } from './file-job.js'

/** A sidecar name preencode would write that is already taken by a file it did not write. */
interface SidecarClash {
  /** The original whose variant would go there, POSIX path relative to the root. */
  original: string
  format: Format
  /** The sidecar path, relative to the root. */
  path: string
}

export interface OwnershipResult {
  /**
   * Sidecar-named files no manifest records but whose bytes are exactly what this run writes
   * there (a run killed before its manifest, or a deleted manifest): nothing is lost by taking
   * them over, so they become preencode's variants.
   */
  adopted: string[]
}

/**
 * Checks, before anything is written, that no variant this run writes would replace a file
 * preencode did not write (the user's own `data.csv.gz`, say). Each clash is encoded first
 * (from the cache when warm): a variant that would not be written (no saving) is no clash, and
 * a file holding exactly the bytes preencode would write is adopted. Any other clash fails the
 * run with a message naming the file and the ways out.
 */
export async function checkSidecarOwnership(
  ctx: FileJobContext,
  jobs: readonly FileJob[],
  foreign: ReadonlySet<string>,
): Promise<OwnershipResult> {
  const clashes: SidecarClash[] = []
  for (const job of jobs) {
    for (const format of ctx.options.formats) {
      const path = `${job.path}${CODECS[format].extension}`
      if (foreign.has(path)) clashes.push({ original: job.path, format, path })
    }
  }
  const adopted: string[] = []
  const blocking: SidecarClash[] = []
  for (const clash of clashes) {
    const job = jobs.find((j) => j.path === clash.original)!
    const verdict = job.recoverFromGzip ? 'clash' : await judge(ctx, clash)
    if (verdict === 'adopt') adopted.push(clash.path)
    else if (verdict === 'clash') blocking.push(clash)
  }
  if (blocking.length > 0) throw clashError(ctx.root, blocking)
  return { adopted }
}

async function judge(ctx: FileJobContext, clash: SidecarClash): Promise<'adopt' | 'clash' | 'no-write'> {
  let data: Buffer
  let existing: Buffer
  try {
    data = await withOpenFiles(1, () => readFile(join(ctx.root, clash.original)))
    existing = await withOpenFiles(1, () => readFile(join(ctx.root, clash.path)))
  } catch {
    return 'clash' // a symlink or a file we cannot read: certainly not ours to replace
  }
  if (skipReason(ctx.rule, clash.original, data.byteLength)) return 'no-write'
  const { bytes } = await encodeWithCache(ctx, clash.format, data, sha256Hex(data), clash.original)
  if (!isWorthWriting(ctx, bytes.byteLength, data.byteLength)) return 'no-write'
  return bytes.equals(existing) ? 'adopt' : 'clash'
}

function clashError(root: string, clashes: readonly SidecarClash[]): Error {
  const [first] = clashes
  const more =
    clashes.length > 1
      ? ` (and ${clashes.length - 1} more: ${clashes
          .slice(1, 4)
          .map((c) => c.path)
          .join(', ')}${clashes.length > 4 ? ', …' : ''})`
      : ''
  return userError(
    'core',
    `${join(root, first!.path)} is in the way: preencode would write the ${first!.format} variant of ${first!.original} there, ` +
      `but neither a manifest nor the journal of an interrupted run says preencode wrote that file, so it is left alone${more}. ` +
      `If it is yours: move or delete it, exclude ${first!.original} (\`exclude\`), or drop ${first!.format} from \`formats\`. ` +
      `If an older preencode (without a journal) wrote it and was killed before its manifest: delete those variants.`,
    { code: 'BAD_INPUT' },
  )
}
