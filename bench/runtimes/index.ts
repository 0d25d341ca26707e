// Runtimes part: requests/s of the preencode Fetch handler against each runtime's own static
// handler (Bun.file, Hono's serveStatic on Deno, @fastify/static, sirv), on the serving part's
// ~400 KB HTML page and the playground's largest script, with wrk on loopback; ratios per round.
import { cp, mkdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { toolPath } from '@preencode/test-utils'
import type { BenchContext } from '../lib/context.ts'
import { buildLargePage } from '../lib/large-page.ts'
import { importBuilt } from '../lib/packages.ts'
import { largestPlaygroundScript } from '../lib/playground-script.ts'
import { emptyPart, type PartResult } from '../lib/report.ts'
import { firstLine, fmtInt } from '../lib/util.ts'
import { ACCEPT_ENCODING, probe, runWrk, writeWrkScript } from '../lib/wrk.ts'
import { type Mode, modesOf, pairMissing, RUNTIME_PAIRS, type RunningRuntime, startRuntime } from './servers.ts'
import { type Cell, runtimeTables } from './tables.ts'

const WRK = { threads: 2, connections: 32, seconds: 3 }
const WRK_QUICK = { threads: 2, connections: 8, seconds: 1 }
/** Rounds in a full run; every other round runs the servers in reverse order (see serve/index.ts). */
const ROUNDS = 4

export async function runRuntimes(ctx: BenchContext): Promise<PartResult> {
  const part = emptyPart('runtimes', 'JavaScript runtimes: the preencode handler vs each runtime’s own static handler')
  part.description = [
    'Each runtime serves the same folder twice, on its own loopback port: with `createPreencodeHandler` (the',
    'snippets of docs/servers/javascript.md) and with its own static handler at its defaults. Files: the serving',
    "part's ~400 KB HTML page and the playground's largest script, with variants by preencode's engine. wrk sends",
    '`Accept-Encoding: br, gzip`; in each round both handlers of a runtime serve a file back to back (reversed every',
    'other round), and a ratio is the median over the rounds of the ratio within each round.',
  ].join(' ')
  try {
    toolPath('wrk')
  } catch (error) {
    return { ...part, skipped: `wrk is not installed (${firstLine(error)})` }
  }
  const core = await importBuilt('@preencode/core', ['compress'])
  if (!('mod' in core)) return { ...part, skipped: core.why }
  const dir = join(ctx.tmp, 'runtimes')
  const site = join(dir, 'site')
  await mkdir(join(site, 'assets'), { recursive: true })
  await writeFile(join(site, 'page.html'), await buildLargePage())
  const script = await largestPlaygroundScript(ctx, dir)
  if ('why' in script) return { ...part, skipped: script.why }
  await cp(script.path, join(site, 'assets', script.name))
  await core.mod.compress(site, { formats: ['gzip', 'brotli', 'zstd'], cache: join(dir, 'cache') })
  const files = [
    { label: 'HTML page', path: '/page.html', bytes: (await stat(join(site, 'page.html'))).size },
    { label: 'playground script', path: `/assets/${script.name}`, bytes: (await stat(script.path)).size },
  ]

  const cells = new Map<string, Cell>()
  const key = (pair: string, mode: Mode, path: string) => `${pair} ${mode} ${path}`
  const servers = new Map<string, RunningRuntime>()
  const missing = new Map<string, string>()
  const wrkScript = await writeWrkScript(dir)
  const wrk = ctx.quick ? WRK_QUICK : WRK
  const rounds = ctx.quick ? 1 : ROUNDS
  try {
    for (const pair of RUNTIME_PAIRS) {
      const why = pairMissing(pair)
      if (why) {
        missing.set(pair.id, `missing on this machine: ${why}`)
        continue
      }
      for (const mode of modesOf(pair)) {
        try {
          const server = await startRuntime(pair, mode, site)
          servers.set(`${pair.id} ${mode}`, server)
          for (const file of files) {
            const answer = await probe(server.url + file.path)
            cells.set(key(pair.id, mode, file.path), {
              probe: answer,
              runs: [],
              error: answer.status === 200 ? undefined : `answered ${answer.status}`,
            })
          }
        } catch (error) {
          for (const file of files)
            cells.set(key(pair.id, mode, file.path), { runs: [], error: `did not start: ${firstLine(error)}` })
        }
      }
    }
    for (let round = 1; round <= rounds; round++) {
      for (const file of files) {
        for (const pair of RUNTIME_PAIRS) {
          for (const mode of round % 2 ? modesOf(pair) : modesOf(pair).reverse()) {
            const server = servers.get(`${pair.id} ${mode}`)
            const cell = cells.get(key(pair.id, mode, file.path))
            if (!server || !cell || cell.error) continue
            try {
              const run = await runWrk(server.url + file.path, wrkScript, wrk)
              cell.runs.push(run)
              ctx.log(
                `runtimes: round ${round}/${rounds} ${pair.label} ${mode} ${file.path}: ${fmtInt(run.rps)} req/s, ${fmtInt(run.bytesPerResponse)} B/response`,
              )
            } catch (error) {
              cell.error = firstLine(error)
            }
          }
        }
      }
    }
  } finally {
    for (const server of servers.values()) await server.stop()
  }
  const { tables, targets } = runtimeTables(files, (pair, mode, path) => cells.get(key(pair, mode, path)), missing, {
    wrk: `wrk -t${wrk.threads} -c${wrk.connections} -d${wrk.seconds}s -H 'Accept-Encoding: ${ACCEPT_ENCODING}'`,
    rounds,
  })
  part.tables.push(...tables)
  part.targets.push(...targets)
  part.notes.push(
    "Under Bun the preencode handler's body is a Bun.file too (sent by Bun's native code, no byte through JavaScript, Content-Length kept); `Bun.file of the stored .br` sends the very bytes the handler sends, with no negotiation and no check, so that ratio measures what the handler does per request: negotiation and the headers (remembered per header value and file version), and two synchronous `stat`s (the manifest's, and the file's, whose version tells that the path checked inside the site still leads to the file checked; each shared by the requests of one event-loop turn), with no open of its own; see docs/servers/javascript.md#bunserve.",
    "Deno's own `serveDir` (std/http) is published on JSR only, which this machine cannot reach (jsr.io and npm.jsr.io do not answer): Deno is compared with Hono's serveStatic for Deno instead.",
  )
  return part
}
