// docs/getting-started.md shows commands and what they print. This runs those commands, as
// written, with the real binary on docs/example-site copied to `public/`, and checks that the
// tool still prints exactly the sample (only the duration may differ). A change to the report
// or the site that breaks the page breaks this test, and the page gets updated with it.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { REPO_ROOT, tempDir } from '@preencode/test-utils'
import { afterEach, expect, it } from 'vitest'

const BIN = resolve(import.meta.dirname, '../dist/bin.js')
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** The `sh` block and the `text` block of the page's "With any other generator" section. */
async function section(): Promise<{ commands: string[][]; sample: string }> {
  const page = await readFile(join(REPO_ROOT, 'docs', 'getting-started.md'), 'utf8')
  const start = page.indexOf('## With any other generator')
  const body = page.slice(start, page.indexOf('\n## ', start + 1))
  const sh = /```sh\n([\s\S]*?)```/.exec(body)?.[1]
  const sample = /```text\n([\s\S]*?)```/.exec(body)?.[1]
  if (!sh || !sample)
    throw new Error('docs/getting-started.md lost its sh or text block under "With any other generator"')
  const commands = sh
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean)
    .map((line) => line.split(/\s+/))
  return { commands, sample }
}

/** Durations are the one thing that differs between runs. */
const normalise = (text: string): string => text.replace(/ in \d+(\.\d+)? (ms|s) \(/g, ' in <time> (')

it('the getting-started commands run as written and print the sample output', async () => {
  const { commands, sample } = await section()
  expect(commands.map((c) => c.slice(0, 3).join(' '))).toEqual(['npx preencode compress', 'npx preencode report'])
  const tmp = await tempDir('getting-started')
  cleanups.push(tmp.remove)
  await cp(join(REPO_ROOT, 'docs', 'example-site'), join(tmp.path, 'public'), { recursive: true })
  const outputs: string[] = []
  for (const [npx, name, ...args] of commands) {
    expect(`${npx} ${name}`).toBe('npx preencode')
    const run = spawnSync(process.execPath, [BIN, ...args], {
      cwd: tmp.path,
      encoding: 'utf8',
      // A fresh user cache (no package.json here), as on a first run; plain text as in a pipe.
      env: { ...process.env, NO_COLOR: '1', CI: '', XDG_CACHE_HOME: join(tmp.path, 'cache') },
    })
    expect(run.status, run.stderr).toBe(0)
    outputs.push(run.stdout)
  }
  expect(normalise(outputs[0]!)).toBe(normalise(sample))
  expect(existsSync(join(tmp.path, 'preencode-report.html'))).toBe(true)
  // What the page says about a second run.
  const again = spawnSync(process.execPath, [BIN, ...commands[0]!.slice(2)], {
    cwd: tmp.path,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: '', XDG_CACHE_HOME: join(tmp.path, 'cache') },
  })
  expect(again.stdout).toMatch(/all 12 cached, nothing compressed/)
})
