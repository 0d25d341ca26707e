// Parts a run did not select (`--only`) keep what the previous docs/benchmarks.md says of them:
// their target rows and their section, marked with the date of the run that measured them, so
// `pnpm bench -- --only runtimes` adds its part without erasing the others' numbers.

/** What the previous page holds for one part. */
export interface KeptPart {
  /** The target rows of its Targets table, as written. */
  targets: string[]
  /** Its section below its `## ` heading, up to the next one, without the heading. */
  section: string
  /** The date of the run that wrote the previous page. */
  date: string
}

/** The part named `name` (with the heading `title`) in `previous`, or undefined when it is not there or was skipped. */
export function keptPart(previous: string, name: string, title: string): KeptPart | undefined {
  const section = sectionOf(previous, title)
  if (section === '' || section.startsWith('Skipped:')) return undefined
  const targets = sectionOf(previous, 'Targets')
    .split('\n')
    .filter((line) => line.startsWith(`| ${name} | `))
  // Kept once already: its own date, not the date of the run that kept it.
  const marker = /^_Not rerun: measured in the run of ([^_]+)_\n\n/.exec(section)
  const date = marker?.[1] ?? /\| date \(UTC\) \| ([^|]+) \|/.exec(previous)?.[1]?.trim() ?? 'an earlier run'
  return { targets, section: marker ? section.slice(marker[0].length) : section, date }
}

/** The text under the `## title` heading of `page`, up to the next `## ` heading; '' when absent. */
function sectionOf(page: string, title: string): string {
  const heading = `\n## ${title}\n`
  const start = page.indexOf(heading)
  if (start === -1) return ''
  const next = page.indexOf('\n## ', start + heading.length)
  return page.slice(start + heading.length, next === -1 ? undefined : next).trim()
}
