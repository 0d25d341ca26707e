// What users get wrong, or what their machine does to them, in one table (issue 7): each row
// runs the real binary and must end with exit code 1, one line on stderr that says what is
// wrong (no stack), and nothing written anywhere in the work folder.
import { spawn } from 'node:child_process'
import { chown, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { freePort, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = process.env.PREENCODE_TEST_BIN ?? resolve(import.meta.dirname, '../../dist/bin.js')
const IS_ROOT = process.getuid?.() === 0
const NOBODY = 65534

interface Run {
  status: number | null
  stdout: string
  stderr: string
}

interface Invocation {
  args: string[]
  /** Node flags before the binary (e.g. a preload). */
  node?: string[]
  /**
   * Close our end of stdout before the child writes, like a reader that stopped early (`| head`).
   * Closing after the first chunk raced: a small output fits the pipe in one write and never fails.
   */
  closeStdoutEarly?: boolean
  /** Run as this uid/gid (root only). */
  uid?: number
  /** Working directory. @default the work folder */
  cwd?: string
}

function cli(call: Invocation, cwd: string): Promise<Run> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [...(call.node ?? []), BIN, ...call.args], {
      cwd: call.cwd ?? cwd,
      env: { ...process.env, NO_COLOR: '1', CI: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(call.uid === undefined ? {} : { uid: call.uid, gid: call.uid }),
    })
    let stdout = ''
    let stderr = ''
    if (call.closeStdoutEarly) child.stdout.destroy()
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    // A command that never returns (the /proc mkdir) must fail the test, not hang it.
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000)
    child.on('error', reject)
    child.on('close', (status) => {
      clearTimeout(timer)
      done({ status, stdout, stderr })
    })
  })
}

/** Every entry under `dir` with its size and mtime: "nothing written" means this does not change. */
async function snapshot(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const lines = await Promise.all(
    entries.map(async (e) => {
      const path = join(e.parentPath, e.name)
      const info = await stat(path)
      return `${path.slice(dir.length)} ${e.isDirectory() ? 'dir' : info.size} ${info.mtimeMs}`
    }),
  )
  return lines.sort()
}

let work: Awaited<ReturnType<typeof tempDir>>
let site: string

beforeAll(async () => {
  work = await tempDir('bad-input')
  // Readable by the unprivileged user of the "unwritable folder" row, writable only by us.
  await chown(work.path, process.getuid?.() ?? 0, process.getgid?.() ?? 0)
  await import('node:fs/promises').then((fs) => fs.chmod(work.path, 0o755))
  site = join(work.path, 'site')
  // Enough pages that a dry-run plan in JSON outgrows a pipe's buffer (64 KiB).
  for (let i = 0; i < 600; i++) {
    await mkdir(join(site, `section-${i % 20}`), { recursive: true })
    await writeFile(
      join(site, `section-${i % 20}`, `page-${i}.html`),
      `<!doctype html><title>${i}</title>\n${'<p>the quick brown fox jumps over the lazy dog</p>\n'.repeat(40)}`,
    )
  }
  // A project with two config files: which one would be read is not for preencode to guess.
  await mkdir(join(work.path, 'two-configs'))
  await writeFile(join(work.path, 'two-configs', 'preencode.config.json'), '{ "deploy": { "to": "out-json" } }\n')
  await writeFile(
    join(work.path, 'two-configs', 'preencode.config.mjs'),
    "export default { deploy: { to: 'out-mjs' } }\n",
  )
  const compressed = await cli(
    { args: ['compress', site, '--formats', 'gzip', '--level-gzip', '1', '--no-cache', '--quiet'] },
    work.path,
  )
  expect(compressed.status, compressed.stderr).toBe(0)
})
afterAll(async () => {
  await work.remove()
})

interface Row {
  what: string
  call: () => Promise<Invocation> | Invocation
  message: RegExp
  /** What this machine must have for the row to run (else it is skipped, naming it). */
  needs?: { what: string; here: boolean }
}

const rows: Row[] = [
  {
    what: 'an unwritable site folder',
    call: async () => {
      if (!IS_ROOT) {
        await import('node:fs/promises').then((fs) => fs.chmod(site, 0o555))
        return { args: ['compress', site, '--no-cache'] }
      }
      return { args: ['compress', site, '--no-cache'], uid: NOBODY } // root writes anywhere: run as nobody
    },
    message: /Cannot write to .*site: permission denied \(EACCES\)/,
  },
  {
    what: 'an --include glob that is not one (an unclosed brace would match no file and strip every variant)',
    call: () => ({ args: ['compress', site, '--include', '*.{html,js', '--no-cache'] }),
    message: /--include '\*\.\{html,js' is not a valid glob: it has an unclosed `\{`, so it would match no file/,
  },
  {
    what: 'two config files in the working directory',
    call: () => ({ args: ['deploy', site, '--to', join(work.path, 'out')], cwd: join(work.path, 'two-configs') }),
    message:
      /Found 2 config files in .*two-configs: .*preencode\.config\.mjs and .*preencode\.config\.json; preencode reads one/,
  },
  {
    what: 'output piped to a reader that stops early (| head)',
    call: () => ({
      args: ['deploy', site, '--to', join(work.path, 'out'), '--dry-run', '--json'],
      closeStdoutEarly: true,
    }),
    message: /output was closed before preencode finished writing it \(EPIPE\)/,
  },
  {
    what: 'Node older than 22.15',
    call: () => ({
      args: ['compress', site],
      node: ['--import', 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"22.14.0"})'],
    }),
    message: /needs Node >= 22\.15 .*this is Node 22\.14\.0/,
  },
  {
    what: '--endpoint not-a-url',
    call: () => ({ args: ['deploy', site, '--to', 's3://bucket/site', '--endpoint', 'not-a-url'] }),
    message: /--endpoint is `not-a-url`, not an http\(s\) URL/,
  },
  {
    what: 'verify of an unreachable URL',
    call: async () => ({ args: ['verify', `http://127.0.0.1:${await freePort()}/`, site] }),
    message: /Cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused/,
  },
  {
    what: 'deploy of a site folder that does not exist',
    call: () => ({ args: ['deploy', join(work.path, 'no-such-site'), '--to', join(work.path, 'out')] }),
    message: /The site folder .*no-such-site does not exist/,
  },
  {
    what: 'deploy into a folder whose parent does not exist',
    call: () => ({ args: ['deploy', site, '--to', join(work.path, 'no', 'such', 'out')] }),
    message: /Cannot deploy to .*out: the folder .*such does not exist/,
  },
  {
    what: 'deploy under /proc, where a recursive mkdir never returns',
    call: () => ({ args: ['deploy', site, '--to', '/proc/preencode-test/out'] }),
    message: /Cannot deploy to \/proc\/preencode-test\/out: the folder \/proc\/preencode-test does not exist/,
    needs: { what: '/proc', here: process.platform === 'linux' },
  },
  {
    what: 'deploy --to a folder inside the site',
    call: () => ({ args: ['deploy', site, '--to', join(site, 'public')] }),
    message:
      /Cannot deploy to local folder .*site\/public: it is inside the site folder .*site \(the deployed copy would become part of the site\)/,
  },
  {
    what: 'deploy --to / (a folder holding the site)',
    call: () => ({ args: ['deploy', site, '--to', '/', '--delete'] }),
    message: /Cannot deploy to local folder \/: it holds the site folder .*site \(it is the root of the file system\)/,
  },
  {
    what: 'deploy --release --to the site folder itself',
    call: () => ({ args: ['deploy', site, '--to', site, '--release'] }),
    message: /Cannot deploy to rsync .*site \(release mode\): it is the site folder .*site itself/,
  },
]

describe('bad input: one clear line, exit code 1, nothing written', () => {
  for (const row of rows) {
    it(row.what, async ({ skip }) => {
      skip(row.needs?.here === false, `missing on this machine: ${row.needs?.what}`)
      const before = await snapshot(work.path)
      try {
        const run = await cli(await row.call(), work.path)
        expect(run.stderr).toMatch(row.message)
        expect(run.stderr).not.toMatch(/\n\s+at /) // no stack
        expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1)
        expect(run.status, run.stderr).toBe(1)
      } finally {
        await import('node:fs/promises').then((fs) => fs.chmod(site, 0o755))
      }
      expect(await snapshot(work.path)).toEqual(before)
    })
  }
})

describe('deploy --dry-run --delete', () => {
  it('reports the deletions it lists, and deletes nothing', async () => {
    const out = join(work.path, 'dry-out')
    const first = await cli({ args: ['deploy', site, '--to', out] }, work.path)
    expect(first.status, first.stderr).toBe(0)
    const removed = ['section-1/page-1.html', 'section-2/page-2.html']
    const gone = join(work.path, 'gone')
    await mkdir(gone)
    for (const path of removed) {
      await writeFile(join(gone, path.replace('/', '-')), await readFile(join(site, path)))
      await rm(join(site, path))
    }
    const dry = await cli({ args: ['deploy', site, '--to', out, '--dry-run', '--delete'] }, work.path)
    expect(dry.status, dry.stderr).toBe(0)
    const listed = dry.stdout
      .split('\n')
      .filter((line) => /^\s+delete /.test(line))
      .map((line) => line.trim().slice('delete '.length))
    expect(listed.sort()).toEqual(removed.flatMap((p) => [p, `${p}.gz`]).sort())
    expect(dry.stdout).toMatch(new RegExp(`would delete ${listed.length}\\b`))
    for (const path of listed) expect((await stat(join(out, path))).isFile()).toBe(true)
    // Put the site back as it was for nothing else to notice.
    for (const path of removed) await writeFile(join(site, path), await readFile(join(gone, path.replace('/', '-'))))
    await rm(gone, { recursive: true })
  })
})

describe('deploy --delete where preencode never deployed (no deploy state)', () => {
  it('refuses with one line naming what it would remove; --dry-run lists it; --delete-unknown removes it', async () => {
    const out = join(work.path, 'foreign-out')
    const foreign = ['index.php', 'old/page.html', 'uploads/cv.pdf', 'z.txt']
    for (const path of foreign) {
      await mkdir(join(out, path, '..'), { recursive: true })
      await writeFile(join(out, path), `someone's ${path}`)
    }
    const before = await snapshot(out)
    const refused = await cli({ args: ['deploy', site, '--to', out, '--delete'] }, work.path)
    expect(refused.stderr).toMatch(
      /local folder .*foreign-out has no deploy state \(preencode never deployed there\), and --delete would remove 4 files there that the site does not have: index\.php, old\/page\.html, uploads\/cv\.pdf and 1 more\. Nothing was uploaded or deleted\. Pass --delete-unknown/,
    )
    // One error line (a note may precede it: the dry-run test above rewrote two pages).
    expect(refused.stderr.split('\n').filter((line) => line.startsWith('[preencode]'))).toHaveLength(1)
    expect(refused.stderr).not.toMatch(/\n\s+at /)
    expect(refused.status).toBe(1)
    expect((await snapshot(out)).map((line) => line.split(' ')[0])).toEqual(before.map((line) => line.split(' ')[0]))

    const dry = await cli({ args: ['deploy', site, '--to', out, '--delete', '--dry-run'] }, work.path)
    expect(dry.status, dry.stderr).toBe(0)
    expect(dry.stderr).toMatch(/^warning: without --dry-run this deploy would stop: .*would remove 4 files/)
    for (const path of foreign) expect(dry.stdout).toContain(`delete ${path}`)

    const confirmed = await cli({ args: ['deploy', site, '--to', out, '--delete', '--delete-unknown'] }, work.path)
    expect(confirmed.status, confirmed.stderr).toBe(0)
    expect(confirmed.stdout).toMatch(/deleted 4\b/)
    for (const path of foreign) await expect(stat(join(out, path))).rejects.toThrow(/ENOENT/)
  })
})
