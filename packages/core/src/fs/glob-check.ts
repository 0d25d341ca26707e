/**
 * Why a glob of `include`/`exclude` is not one, or undefined when it is. picomatch takes an
 * unclosed `{`, `[` or `(` as a literal character, so `*.{html,js` matches no file at all:
 * as an `include` that silently strips every variant of the site. Those are refused instead.
 */
export function globProblem(glob: string): string | undefined {
  const closers: Record<string, string> = { '{': '}', '[': ']', '(': ')' }
  const open: string[] = []
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    if (c === '\\') {
      i++ // an escaped character is literal
      continue
    }
    // Inside a class `[...]` everything but its closing `]` is literal.
    if (open.at(-1) === '[' && c !== ']') continue
    if (c in closers) open.push(c)
    else if (c === '}' || c === ']' || c === ')') {
      const last = open.pop()
      if (last === undefined || closers[last] !== c) return `a \`${c}\` that closes nothing`
    }
  }
  const unclosed = open.pop()
  return unclosed === undefined ? undefined : `an unclosed \`${unclosed}\``
}
