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
 *   opened (device, inode, size, mtime, ctime: `sameVersion`) — its ETag, length and Last-Modified
 *   come from that version — and not on the clock: remembered per representation, by version,
 *   method and status. A rebuild (a new inode) or any write (a new ctime) is another version.
 *
 * Both are bounded per file, the oldest forgotten first; a request with a precondition or a
 * range is answered afresh.
 */

import type { ServedFile } from '../http/served-file.js'
import { type Answer, chooseRepresentation, type Representation, type RequestFacts } from '../http/spec.js'
import { sameVersion, type Version } from './file-access.js'

/** Header-value pairs whose representation is remembered per file. */
const MAX_CHOICES = 16
/** Versions, methods and statuses whose answer is remembered per representation. */
const MAX_ANSWERS = 4

/** An answer remembered, with what it was the answer to. */
interface Remembered {
  version: Version
  method: string
  status: 200 | 404
  answer: Answer
}

const CHOICES = new WeakMap<ServedFile, Map<string, Representation | undefined>>()
const ANSWERS = new WeakMap<Representation, Remembered[]>()

/**
 * The key of a request's two header values. A header value holds no CR or LF: `\r` stands for
 * an absent Accept-Encoding, `\n` separates an Available-Dictionary (absent: nothing added).
 */
const choiceKey = (ae: string | undefined, ad: string | undefined): string =>
  ad === undefined ? (ae ?? '\r') : `${ae ?? '\r'}\n${ad}`

/** `chooseRepresentation(facts, file)`, remembered by the request's Accept-Encoding and Available-Dictionary. */
export function chosenFor(facts: RequestFacts, file: ServedFile): Representation | undefined {
  const key = choiceKey(facts.headers['accept-encoding'], facts.headers['available-dictionary'])
  let choices = CHOICES.get(file)
  if (!choices) CHOICES.set(file, (choices = new Map()))
  const known = choices.get(key)
  if (known !== undefined || choices.has(key)) return known
  const chosen = chooseRepresentation(facts, file)
  if (choices.size >= MAX_CHOICES) choices.delete(choices.keys().next().value as string)
  choices.set(key, chosen && Object.freeze(chosen))
  return chosen
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

/** Where the answer to a request for `chosen` of one version of the file is remembered. */
export interface AnswerSlot {
  get(): Answer | undefined
  set(answer: Answer): Answer
}

/** The slot for this request's answer, or undefined when it has a precondition or a range. */
export function answerSlot(
  facts: RequestFacts,
  chosen: Representation,
  version: Version,
  status: 200 | 404,
): AnswerSlot | undefined {
  if (!isPlain(facts)) return undefined
  const { method } = facts
  let answers = ANSWERS.get(chosen)
  if (!answers) ANSWERS.set(chosen, (answers = []))
  const memo = answers
  return {
    get: () => {
      for (const r of memo)
        if (r.method === method && r.status === status && sameVersion(r.version, version)) return r.answer
      return undefined
    },
    set: (answer) => {
      if (memo.length >= MAX_ANSWERS) memo.shift()
      memo.push({ version, method, status, answer: freeze(answer) })
      return answer
    },
  }
}

/** An answer shared by the requests that get it: read only. */
function freeze(answer: Answer): Answer {
  Object.freeze(answer.headers)
  if (answer.body) Object.freeze(answer.body)
  return Object.freeze(answer)
}
