// The rsync target's side of the wire: each rsync (or ssh) run, counted, with one clear message
// when it fails; the temp folder that holds file lists, the state file and fetched files.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { userError } from '@preencode/core'
import { DEPLOY_STATE_FILENAME, type DeployState, parseDeployState } from '../../plan/state.js'
import {
  type ListedEntry,
  parseListing,
  type RsyncDestination,
  rsyncUrl,
  sshScriptArgs,
  transferArgs,
} from './command.js'
import { type RunResult, spawnCollected } from './process.js'

/** Runs rsync and ssh against one destination; `runs` counts every process (and local swap). */
export class RsyncRemote {
  runs = 0
  private work: string | undefined
  private fetched = 0

  constructor(
    readonly dest: string,
    readonly destination: RsyncDestination,
    readonly description: string,
    readonly rsync: string,
    readonly ssh: string | undefined,
  ) {}

  async run(command: string, args: string[], action: string, okCodes: number[] = [0]): Promise<RunResult> {
    this.runs++
    const result = await spawnCollected(command, args).catch((cause: unknown) => {
      throw userError(
        'deploy',
        `${this.description}: ${action} failed: cannot run ${command} (${(cause as Error).message}).`,
        { cause, code: 'TARGET_FAILED' },
      )
    })
    if (!okCodes.includes(result.code)) {
      const detail = result.stderr.trim().split('\n').slice(-3).join(' | ')
      throw userError('deploy', `${this.description}: ${action} failed (${command} exit ${result.code}): ${detail}`, {
        code: 'TARGET_FAILED',
      })
    }
    return result
  }

  /** One rsync run (its `-e ssh` added when the destination is over ssh). */
  rsyncRun(args: string[], action: string, okCodes?: number[]): Promise<RunResult> {
    return this.run(this.rsync, [...(this.ssh ? ['-e', this.ssh] : []), ...args], action, okCodes)
  }

  async workDir(): Promise<string> {
    this.work ??= await mkdtemp(join(tmpdir(), 'preencode-rsync-'))
    return this.work
  }

  async fileList(name: string, keys: readonly string[]): Promise<string> {
    const path = join(await this.workDir(), name)
    await writeFile(path, keys.map((k) => `${k}\0`).join(''))
    return path
  }

  /** One of our files (the state, the manifest), written in the work folder and sent by rsync to `to`. */
  async sendFile(to: string, name: string, text: string): Promise<void> {
    const dir = await this.workDir()
    await writeFile(join(dir, name), text)
    const filesFrom = await this.fileList(`list-${name}`, [name])
    const options = { filesFrom, ssh: this.ssh, mkpath: true, ignoreTimes: true }
    await this.run(this.rsync, transferArgs(dir, to, options), `writing ${name}`)
  }

  async list(sub: string, recursive: boolean): Promise<ListedEntry[] | undefined> {
    const url = rsyncUrl(this.destination, sub)
    // 23: partial transfer, here "no such file or directory": an empty destination.
    const args = ['--list-only', ...(recursive ? ['-r'] : []), ...(this.ssh ? ['-e', this.ssh] : []), url]
    const result = await this.run(this.rsync, args, `listing ${url}`, [0, 23])
    if (result.code === 23) {
      if (/No such file or directory|change_dir.*failed/i.test(result.stderr)) return undefined
      throw userError('deploy', `${this.description}: listing failed: ${result.stderr.trim()}`, {
        code: 'TARGET_FAILED',
      })
    }
    return parseListing(result.stdout)
  }

  async readState(): Promise<DeployState | undefined> {
    const dir = await this.workDir()
    const source = rsyncUrl(this.destination).replace(/\/$/, `/${DEPLOY_STATE_FILENAME}`)
    await this.rsyncRun([source, `${dir}/`], `reading ${DEPLOY_STATE_FILENAME}`)
    return parseDeployState(
      await readFile(join(dir, DEPLOY_STATE_FILENAME), 'utf8'),
      `${this.dest}/${DEPLOY_STATE_FILENAME}`,
    )
  }

  /** One remote file into the work folder; undefined when the target does not have it. */
  async fetchFile(path: string): Promise<Buffer | undefined> {
    const local = join(await this.workDir(), 'previous', String(this.fetched++))
    await mkdir(dirname(join(local, 'file')), { recursive: true })
    const source = rsyncUrl(this.destination, path).replace(/\/$/, '')
    const result = await this.rsyncRun([source, join(local, 'file')], `reading ${path}`, [0, 23])
    if (result.code === 23) {
      if (/No such file or directory/i.test(result.stderr)) return undefined
      throw userError('deploy', `${this.description}: reading ${path} failed: ${result.stderr.trim()}`, {
        code: 'TARGET_FAILED',
      })
    }
    return readFile(join(local, 'file'))
  }

  /** A shell script on the ssh host; nothing for other destinations. */
  async runScript(script: string, action: string): Promise<void> {
    if (this.destination.kind !== 'ssh') return
    const { command, args } = sshScriptArgs(this.ssh ?? 'ssh', this.destination.host, script)
    await this.run(command, args, action)
  }

  async removeWorkDir(): Promise<void> {
    if (this.work) await rm(this.work, { recursive: true, force: true })
  }
}
