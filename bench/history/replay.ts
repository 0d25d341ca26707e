// The returning visitor's byte accounting, a pure function over a site's deploys: after each
// deploy the visitor comes back and fetches the files of that deploy's visit (pages, the scripts
// and styles they load, the page dictionary they link). A file whose bytes they already hold at
// that URL costs nothing (the browser cache) for every method; any other file costs, per method,
// what the server sends. preencode sends the smallest delta whose dictionary the visitor held when
// the visit began (an earlier version they fetched), else the smaller of br and zstd.

/** What one method's server sends for one file of one deploy. */
export interface MethodBytes {
  /** The bytes served to a visitor holding no usable dictionary. */
  full: number
  /**
   * Deltas the server has, each against the bytes whose hash is `dictionary`: usable when the
   * visitor holds those bytes (deltas are written only against earlier versions of the same file
   * or the page dictionary, whose match patterns cover this URL).
   */
  deltas?: readonly { dictionary: string; size: number }[]
}

/** One file a visitor fetches at one deploy, under one method's deployed bytes. */
export interface VisitedFile {
  path: string
  /** Identity of the bytes at this URL (a content hash): equal to what is held means no download. */
  hash: string
  bytes: MethodBytes
}

/** One deploy's visit: the files fetched, per method (a method may deploy different bytes, e.g. pages with a dictionary link). */
export type DeployVisit<M extends string> = Record<M, readonly VisitedFile[]>

export interface ReplayResult<M extends string> {
  /** Bytes of the first visit (nothing held), per method, at each deploy. */
  firstVisit: Record<M, number>[]
  /** Bytes of the return visit after each deploy (index 0: the first deploy, always 0: not a return). */
  returns: Record<M, number>[]
}

/** What a visitor holds: the bytes at each URL, and when each content was last fetched. */
interface Held {
  files: Map<string, string>
  /** Content hash -> visit number of its latest fetch (a browser advertises the newest matching dictionary). */
  fetched: Map<string, number>
}

const nothingHeld = (): Held => ({ files: new Map(), fetched: new Map() })

/**
 * The bytes one visit costs, and what the visitor holds after it. A browser advertises one
 * dictionary for a URL, the most recently fetched among those that match: the server sends the
 * smallest delta against that one, else the full response.
 */
function visit(files: readonly VisitedFile[], held: Held, when: number): { bytes: number; after: Held } {
  let bytes = 0
  const after: Held = { files: new Map(held.files), fetched: new Map(held.fetched) }
  for (const file of files) {
    if (held.files.get(file.path) === file.hash) continue
    const usable = (file.bytes.deltas ?? []).filter((d) => held.fetched.has(d.dictionary))
    const newest = Math.max(...usable.map((d) => held.fetched.get(d.dictionary)!))
    const sent = usable.filter((d) => held.fetched.get(d.dictionary) === newest).map((d) => d.size)
    bytes += Math.min(file.bytes.full, ...sent)
    after.files.set(file.path, file.hash)
    after.fetched.set(file.hash, when)
  }
  return { bytes, after }
}

/**
 * Replays a visitor who first comes at deploy 0 and returns after every later deploy. Deltas are
 * chosen against what was held when the visit began (a page dictionary fetched during a visit
 * serves the next one).
 */
export function replayVisitor<M extends string>(methods: readonly M[], deploys: DeployVisit<M>[]): ReplayResult<M> {
  const firstVisit: Record<M, number>[] = []
  const returns: Record<M, number>[] = []
  const held = new Map<M, Held>(methods.map((m) => [m, nothingHeld()]))
  for (const [index, deploy] of deploys.entries()) {
    const first = {} as Record<M, number>
    const back = {} as Record<M, number>
    for (const method of methods) {
      first[method] = visit(deploy[method], nothingHeld(), index).bytes
      const result = visit(deploy[method], held.get(method)!, index)
      back[method] = index === 0 ? 0 : result.bytes
      held.set(method, result.after)
    }
    firstVisit.push(first)
    returns.push(back)
  }
  return { firstVisit, returns }
}
