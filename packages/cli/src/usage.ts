import { stripVTControlCharacters } from 'node:util'

/** The width help text wraps at: a terminal's default. */
const USAGE_WIDTH = 80

/** Spaces citty pads the last column with, before any colour reset at the end of the line. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: an ANSI colour code (ESC) may end the line
const TRAILING_SPACES = /[ \t]+((?:\u001b\[[0-9;]*m)*)$/

/** A column line: its first column, the gap of 3+ spaces citty joins columns with, then the text. */
const COLUMNS = /^(\s*\S.*?\s{3,})(\S.*)$/

const widthOf = (text: string): number => stripVTControlCharacters(text).length

/**
 * citty's usage with each line trimmed (it pads every option line to the longest description)
 * and lines wider than `width` wrapped at spaces; an option's description continues under itself.
 */
export function tidyUsage(usage: string, width = USAGE_WIDTH): string {
  return usage
    .split('\n')
    .flatMap((line) => wrapLine(line.replace(TRAILING_SPACES, '$1'), width))
    .join('\n')
}

function wrapLine(line: string, width: number): string[] {
  if (widthOf(line) <= width) return [line]
  const leading = /^\s*/.exec(line)![0]
  const columns = COLUMNS.exec(line)
  // A first column too wide to leave room for the text: the text continues under the line's indent.
  const [head, text] =
    columns && widthOf(columns[1]!) <= width / 2 ? [columns[1]!, columns[2]!] : [leading, line.slice(leading.length)]
  const indent = ' '.repeat(widthOf(head))
  const lines: string[] = []
  let current = head
  let empty = true
  for (const word of text.split(' ')) {
    if (!empty && widthOf(current) + 1 + widthOf(word) > width) {
      lines.push(current)
      current = indent
      empty = true
    }
    current += empty ? word : ` ${word}`
    empty = false
  }
  lines.push(current)
  return lines
}
