// The returning visitor's byte accounting, a pure function over a site's deploys, written from
// RFC 9842. After each deploy the visitor comes back and fetches the files of that deploy's
// visit (pages, the scripts and styles they load, then, when idle, the dictionaries the pages
// link). A file whose bytes they already hold at that URL costs nothing (the browser cache) for
// every method. For any other file the browser advertises one stored dictionary (§2.2.2): among
// those whose `match` (a URLPattern relative to the dictionary's own URL) covers the request URL
// and whose `match-dest`, if any, names the request's destination, the ones with a `match-dest`
// first, then the longest `match`, then the most recently fetched. The server sends its smallest
// delta against that dictionary, else the full response (no delta against another dictionary the
// visitor holds: the browser names only one).

/** A response's `Use-As-Dictionary`. */
interface Announcement {
  /** The `match` pattern, relative to the response's URL (`index-*.js`, `*`). */
  match: string
  matchDest?: readonly string[]
}

/** What one method's server sends for one file of one deploy. */
interface MethodBytes {
  /** The bytes served to a visitor whose advertised dictionary has no delta (or who advertises none). */
  full: number
  /** Deltas the server has, each against the bytes whose hash is `dictionary`. */
  deltas?: readonly { dictionary: string; size: number }[]
}

/** One file a visitor fetches at one deploy, under one method's deployed bytes. */
export interface VisitedFile {
  path: string
  /** Identity of the bytes at this URL (base64 sha256, as `Available-Dictionary` names it): equal to what is held means no download. */
  hash: string
  bytes: MethodBytes
  /** The response's `Use-As-Dictionary`, when it has one. */
  dictionary?: Announcement
  /** A dictionary the pages link (fetched when idle), not a file the page itself needs. */
  linkedDictionary?: boolean
}

/** One deploy's visit: the files fetched, per method (a method may deploy different bytes, e.g. pages with a dictionary link). */
export type DeployVisit<M extends string> = Record<M, readonly VisitedFile[]>

/** Bytes of one visit, and where they went. */
export interface VisitBytes {
  total: number
  /** Full responses of files for which the visitor advertised no dictionary (none matched). */
  noDictionary: number
  /** Bytes spent fetching the dictionaries the pages link. */
  dictionaryFetch: number
}

export interface ReplayResult<M extends string> {
  /** The first visit (nothing held), per method, at each deploy. */
  firstVisit: Record<M, VisitBytes>[]
  /** The return visit after each deploy (index 0: the first deploy, all 0: not a return). */
  returns: Record<M, VisitBytes>[]
}

interface StoredDictionary {
  hash: string
  /** The `match` resolved against the dictionary's URL, as a RegExp over site paths. */
  pattern: RegExp
  match: string
  matchDest: readonly string[]
  fetched: number
}

/** What a visitor holds: the bytes at each URL (the HTTP cache) and the stored dictionaries. */
interface Held {
  files: Map<string, string>
  dictionaries: Map<string, StoredDictionary>
}

const nothingHeld = (): Held => ({ files: new Map(), dictionaries: new Map() })
const zero = (): VisitBytes => ({ total: 0, noDictionary: 0, dictionaryFetch: 0 })

/** The request destination of a site path (Fetch: a page, a script, a style; a linked dictionary's fetch has none). */
function destinationOf(file: VisitedFile): string {
  if (file.linkedDictionary) return ''
  if (/\.html?$/.test(file.path)) return 'document'
  if (/\.m?js$/.test(file.path)) return 'script'
  if (/\.css$/.test(file.path)) return 'style'
  return ''
}

/** A relative `match` (our patterns: literal characters and `*`) against the URL it came with, as a RegExp over site paths. */
function resolvedPattern(match: string, url: string): RegExp {
  const dir = url.slice(0, url.lastIndexOf('/') + 1)
  const literal = (s: string): string => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^${(dir + match).split('*').map(literal).join('.*')}$`)
}

/** The one dictionary the browser advertises for `file` (RFC 9842 §2.2.2), if any. */
function advertised(held: Held, file: VisitedFile): StoredDictionary | undefined {
  const destination = destinationOf(file)
  let best: StoredDictionary | undefined
  const rank = (d: StoredDictionary): [number, number, number] => [
    d.matchDest.length > 0 ? 1 : 0,
    d.match.length,
    d.fetched,
  ]
  for (const stored of held.dictionaries.values()) {
    if (!stored.pattern.test(file.path)) continue
    if (stored.matchDest.length > 0 && !stored.matchDest.includes(destination)) continue
    if (!best) best = stored
    else {
      const [a, b] = [rank(stored), rank(best)]
      if (a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] > b[2])))) best = stored
    }
  }
  return best
}

/** The bytes one visit costs, and what the visitor holds after it (pages and subresources first, linked dictionaries last). */
function visit(files: readonly VisitedFile[], held: Held, when: number): { bytes: VisitBytes; after: Held } {
  const bytes = zero()
  const after: Held = { files: new Map(held.files), dictionaries: new Map(held.dictionaries) }
  const ordered = [...files.filter((f) => !f.linkedDictionary), ...files.filter((f) => f.linkedDictionary)]
  for (const [order, file] of ordered.entries()) {
    if (held.files.get(file.path) === file.hash) continue
    // What was stored before this visit (a dictionary fetched now serves the next visit).
    const dictionary = advertised(held, file)
    const sent = (file.bytes.deltas ?? []).filter((d) => d.dictionary === dictionary?.hash).map((d) => d.size)
    const size = Math.min(file.bytes.full, ...sent)
    bytes.total += size
    if (!dictionary) bytes.noDictionary += size
    if (file.linkedDictionary) bytes.dictionaryFetch += size
    after.files.set(file.path, file.hash)
    if (file.dictionary) {
      after.dictionaries.set(file.hash, {
        hash: file.hash,
        pattern: resolvedPattern(file.dictionary.match, file.path),
        match: file.dictionary.match,
        matchDest: file.dictionary.matchDest ?? [],
        // Visits in order, and within one the order of the fetches.
        fetched: when * 1e6 + order,
      })
    }
  }
  return { bytes, after }
}

/**
 * Replays a visitor who first comes at deploy 0 and returns after every later deploy. Deltas are
 * chosen against what was held when the visit began.
 */
export function replayVisitor<M extends string>(methods: readonly M[], deploys: DeployVisit<M>[]): ReplayResult<M> {
  const firstVisit: Record<M, VisitBytes>[] = []
  const returns: Record<M, VisitBytes>[] = []
  const held = new Map<M, Held>(methods.map((m) => [m, nothingHeld()]))
  for (const [index, deploy] of deploys.entries()) {
    const first = {} as Record<M, VisitBytes>
    const back = {} as Record<M, VisitBytes>
    for (const method of methods) {
      first[method] = visit(deploy[method], nothingHeld(), index).bytes
      const result = visit(deploy[method], held.get(method)!, index)
      back[method] = index === 0 ? zero() : result.bytes
      held.set(method, result.after)
    }
    firstVisit.push(first)
    returns.push(back)
  }
  return { firstVisit, returns }
}
