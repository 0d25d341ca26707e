/**
 * What a request to the site on disk would otherwise work out again each time (issue 35.3: on
 * Bun the handler's own JavaScript is what holds it below `Bun.file`): the representation chosen
 * for a file and a request's Accept-Encoding / Available-Dictionary, and the answer for that
 * representation of one version of the file. Nothing here changes an answer; each is a pure
 * function of its key, remembered:
 *
 * - the representation (`chooseRepresentation`) depends on the file's entry and those two header
 *   values alone: remembered per entry, by the exact values. An entry belongs to one manifest
 *   read (`manifest.ts`), so a new manifest starts afresh.
 * - the answer (`answer`) of a request with no precondition and no range (no `If-*`, no `Range`)
 *   depends on the entry, the representation, the method, the status and the version of the file
 *   opened (device, inode, size, mtime, ctime: `versionOf`) — its ETag, length and Last-Modified
 *   come from that version — and not on the clock: remembered per representation, by version,
 *   method and status. A rebuild (a new inode) or any write (a new ctime) is another version.
 *
 * Both are bounded per file, the oldest forgotten first; a request with a precondition or a
 * range is answered afresh.
 */
import { type Answer, chooseRepresentation, type Representation, type RequestFacts } from '../http/spec.js'
import type { ServedFile } from '../http/served-file.js'

/** Header-value pairs whose representation is remembered per file. */
const MAX_CHOICES = 16
/** Versions, methods and statuses whose answer is remembered per representation. */
const MAX_ANSWERS = 4

const CHOICES = new WeakMap<ServedFile, Map<string, Representation | undefined>>()
const ANSWERS = new WeakMap<Representation, Map<string, Answer>>()

/** Adds to a bounded map, forgetting its oldest key when full. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  if (map.size >= max) map.delete(map.keys().next().value as K)
  map.set(key, value)
  return value
}

/** `chooseRepresentation(facts, file)`, remembered by the request's Accept-Encoding and Available-Dictionary. */
export function chosenFor(facts: RequestFacts, file: ServedFile): Representation | undefined {
  const ae = facts.headers['accept-encoding']
  const ad = facts.headers['available-dictionary']
  // `\n` cannot be in a header value; `-` and `+` tell an absent header from an empty one.
  const key = `${ae === undefined ? '-' : `+${ae}`}\n${ad === undefined ? '-' : `+${ad}`}`
  let choices = CHOICES.get(file)
  if (!choices) CHOICES.set(file, (choices = new Map()))
  if (choices.has(key)) return choices.get(key)
  const chosen = chooseRepresentation(facts, file)
  return remember(choices, key, chosen && Object.freeze(chosen), MAX_CHOICES)
}

/** Whether the answer to `facts` depends on no precondition and no range (then it can be remembered). */
function isPlain(facts: RequestFacts): boolean {
  const h = facts.headers
  return (
    h.range === undefined &&
    h['if-range'] === undefined &&
    h['if-match'] === undefined &&
    h['if-none-match'] === undefined &&
    h['if-modified-since'] === undefined &&
    h['if-unmodified-since'] === undefined
  )
}

/** Where the answer to `facts` for `chosen` of the file `version` is remembered; undefined when it is not. */
export interface AnswerSlot {
  get(): Answer | undefined
  set(answer: Answer): Answer
}

/** The slot for this request's answer, or undefined when it has a precondition or a range. */
export function answerSlot(
  facts: RequestFacts,
  chosen: Representation,
  version: string,
  status: 200 | 404,
): AnswerSlot | undefined {
  if (!isPlain(facts)) return undefined
  const key = `${version}\n${facts.method}\n${status}`
  let answers = ANSWERS.get(chosen)
  if (!answers) ANSWERS.set(chosen, (answers = new Map()))
  const memo = answers
  return {
    get: () => memo.get(key),
    set: (answer) => remember(memo, key, freeze(answer), MAX_ANSWERS),
  }
}

/** An answer shared by the requests that get it: read only. */
function freeze(answer: Answer): Answer {
  Object.freeze(answer.headers)
  if (answer.body) Object.freeze(answer.body)
  return Object.freeze(answer)
}
