// Serving part: wrk on loopback against nginx and Apache, on-the-fly compression vs
// pre-compressed variants (hand-written gzip_static/brotli_static, and the configs that
// @preencode/server-config generates), on a ~400 KB HTML page and the playground's largest script.
import { chmod, cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { toolPath } from '@preencode/test-utils'
import type { BenchContext } from '../lib/context.ts'
import { buildLargePage } from '../lib/large-page.ts'
import { importBuilt } from '../lib/packages.ts'
import { largestPlaygroundScript } from '../lib/playground-script.ts'
import { emptyPart, type PartResult, type Table } from '../lib/report.ts'
import { firstLine, fmtBytes, fmtInt, lowerMedian as median } from '../lib/util.ts'
import { ACCEPT_ENCODING, type Probe, probe, runWrk, type WrkResult, writeWrkScript } from '../lib/wrk.ts'
import { type ConfigId, serverConfigs } from './configs.ts'
import { generators } from './generated.ts'
import { servingRatios } from './ratios.ts'
import { type Server, serverCpuSeconds } from './servers.ts'

const WRK = { threads: 2, connections: 32, seconds: 3 }
const WRK_QUICK = { threads: 2, connections: 8, seconds: 1 }
/**
 * Rounds per configuration and file in a full run. In a round each file is served by every
 * configuration back to back, so a ratio is taken between runs seconds apart, once per round;
 * the median of those per-round ratios is reported (a burst of other load then moves one round,
 * not the verdict). Every other round runs the configurations in reverse order, so no
 * configuration is always the one that runs first or last (an even count balances them).
 */
const ROUNDS = 6

interface Measurement {
  probe: Probe
  runs: WrkResult[]
  /** The server's CPU seconds per request in each run (serverCpuSeconds). */
  cpu: number[]
}

const fmtMicros = (seconds: number): string => (Number.isFinite(seconds) ? (seconds * 1e6).toFixed(1) : '?')

/** The median run by requests/s. */
function medianRun(m: Measurement): WrkResult {
  const sorted = [...m.runs].sort((a, b) => a.rps - b.rps)
  return sorted[(sorted.length - 1) >> 1]!
}

export async function runServe(ctx: BenchContext): Promise<PartResult> {
  const part = emptyPart('serve', 'Serving: nginx and Apache, on-the-fly vs pre-compressed')
  part.description = [
    'nginx 1.22 and Apache 2.4 from Debian run as real processes on loopback ports, all at once, each with its own',
    "throw-away config root, serving the same directory: a ~400 KB HTML page (monaco-editor's changelog and API",
    "declarations as HTML) and the playground's largest script, with variants made by preencode's engine. wrk sends",
    '`Accept-Encoding: br, gzip`. In each round every configuration serves a file back to back (in reverse order every other round); a ratio is the median over the rounds of the ratio within each round.',
  ].join(' ')
  try {
    toolPath('wrk')
  } catch (error) {
    return { ...part, skipped: `wrk is not installed (${firstLine(error)})` }
  }
  const dir = join(ctx.tmp, 'serve')
  const site = join(dir, 'site')
  await mkdir(join(site, 'assets'), { recursive: true })
  // nginx workers and Apache's children run as another user when we are root: let them read.
  for (const d of [ctx.tmp, dir, site, join(site, 'assets')]) await chmod(d, 0o755)

  // The two files.
  await writeFile(join(site, 'page.html'), await buildLargePage())
  const script = await largestPlaygroundScript(ctx, dir)
  if ('why' in script) return { ...part, skipped: script.why }
  await cp(script.path, join(site, 'assets', script.name))
  const files = [
    { label: 'HTML page', path: '/page.html', bytes: (await stat(join(site, 'page.html'))).size },
    {
      label: script.source === 'playground/dist' ? 'playground script' : `script (${script.source})`,
      path: `/assets/${script.name}`,
      bytes: (await stat(script.path)).size,
    },
  ]

  // Variants and manifest by preencode's engine; without it, node:zlib at the same levels so the
  // hand-written configs can still be measured (the generated ones need the manifest).
  const core = await importBuilt('@preencode/core', ['compress'])
  let variantsBy: string
  if ('mod' in core) {
    await core.mod.compress(site, { formats: ['gzip', 'brotli', 'zstd'], cache: join(dir, 'cache') })
    variantsBy = '@preencode/core compressDirectory (gzip 9, brotli 11, zstd 19)'
  } else {
    for (const f of files) {
      const data = await readFile(join(site, f.path))
      await writeFile(join(site, `${f.path}.gz`), gzipSync(data, { level: 9 }))
      await writeFile(
        join(site, `${f.path}.br`),
        brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      )
    }
    variantsBy = `node:zlib gzip 9 and brotli 11 written by the bench, because ${core.why}`
  }
  const generated = 'mod' in core ? await generators(site) : { why: `no manifest: ${core.why}` }

  const configs = await serverConfigs(site, generated)
  const wrkScript = await writeWrkScript(dir)
  const wrkOptions = ctx.quick ? WRK_QUICK : WRK
  const results = new Map<ConfigId, Map<string, Measurement | { error: string }>>()
  // Every server runs at once (idle ones cost nothing), so the rounds can interleave: a burst
  // of load from elsewhere then hits every configuration, and the median of the rounds is kept.
  const servers = new Map<ConfigId, Server>()
  try {
    for (const config of configs) {
      if (!config.start) continue
      const perFile = new Map<string, Measurement | { error: string }>()
      results.set(config.id, perFile)
      const serverDir = join(dir, config.id)
      await mkdir(serverDir, { recursive: true })
      try {
        const server = await config.start(serverDir)
        servers.set(config.id, server)
        for (const file of files) {
          const answer = await probe(server.url + file.path).catch((error: unknown) => ({ error: firstLine(error) }))
          if ('error' in answer) perFile.set(file.path, answer)
          else if (answer.status !== 200)
            perFile.set(file.path, { error: `GET ${file.path} answered ${answer.status}` })
          else perFile.set(file.path, { probe: answer, runs: [], cpu: [] })
        }
      } catch (error) {
        for (const file of files) perFile.set(file.path, { error: `did not start: ${firstLine(error)}` })
        ctx.log(`serve: ${config.label} did not start: ${(error as Error).message}`)
      }
    }
    const rounds = ctx.quick ? 1 : ROUNDS
    for (let round = 1; round <= rounds; round++) {
      for (const file of files) {
        for (const config of round % 2 ? configs : [...configs].reverse()) {
          const server = servers.get(config.id)
          if (!server) continue
          const m = results.get(config.id)!.get(file.path)!
          if ('error' in m) continue
          try {
            const cpuBefore = await serverCpuSeconds(server)
            const wrk = await runWrk(server.url + file.path, wrkScript, wrkOptions)
            const cpu = ((await serverCpuSeconds(server)) - cpuBefore) / wrk.requests
            m.runs.push(wrk)
            m.cpu.push(cpu)
            ctx.log(
              `serve: round ${round}/${rounds} ${config.label} ${file.path}: ${fmtInt(wrk.rps)} req/s, ${fmtMicros(cpu)} µs server CPU/request, ${m.probe.contentEncoding}, ${fmtInt(wrk.bytesPerResponse)} B/response`,
            )
          } catch (error) {
            results.get(config.id)!.set(file.path, { error: firstLine(error) })
            ctx.log(`serve: ${config.label} ${file.path} failed: ${firstLine(error)}`)
          }
        }
      }
    }
  } finally {
    for (const server of servers.values()) await server.stop()
  }

  // Tables.
  const rows: string[][] = []
  for (const config of configs) {
    for (const file of files) {
      if (config.skip) {
        rows.push([config.label, file.label, 'skipped', '', '', '', '', '', ''])
        continue
      }
      const m = results.get(config.id)?.get(file.path)
      if (!m || 'error' in m || m.runs.length === 0) {
        rows.push([config.label, file.label, `failed: ${m && 'error' in m ? m.error : '?'}`, '', '', '', '', '', ''])
        continue
      }
      const run = medianRun(m)
      const errors = m.runs.reduce((a, r) => a + r.errors, 0)
      rows.push([
        config.label,
        file.label,
        m.probe.contentEncoding,
        fmtInt(m.probe.bodyBytes),
        fmtInt(run.bytesPerResponse),
        fmtInt(run.rps),
        `${fmtInt(Math.min(...m.runs.map((r) => r.rps)))}–${fmtInt(Math.max(...m.runs.map((r) => r.rps)))}`,
        fmtMicros(median(m.cpu)),
        String(errors),
      ])
    }
  }
  const table: Table = {
    title: `Requests per second and bytes per response (wrk -t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.seconds}s -H 'Accept-Encoding: ${ACCEPT_ENCODING}', loopback; median of ${ctx.quick ? 1 : ROUNDS} round(s))`,
    columns: [
      'server and configuration',
      'file',
      'Content-Encoding',
      'body bytes',
      'bytes/response',
      'requests/s',
      'range',
      'server CPU µs/request',
      'errors',
    ],
    rows,
    notes: [
      ...files.map((f) => `${f.label}: ${f.path}, ${fmtBytes(f.bytes)} uncompressed`),
      `the script is the largest one in ${script.source}`,
      `variants: ${variantsBy}`,
      'bytes/response is what wrk read per response, headers included; body bytes is one probe GET with the same Accept-Encoding',
      'wrk and the server share the same 2 cores; nginx runs `worker_processes auto` and `pcre_jit on`, Apache the event MPM with its defaults; access logs off',
      "server CPU µs/request: the server's user + system CPU time over a run (/proc: its processes and reaped children) ÷ the run's requests, median of the rounds",
      ...configs.filter((c) => c.skip).map((c) => `${c.label}: skipped: ${c.skip}`),
    ],
  }
  part.tables.push(table)

  const medianOf = (pick: (m: Measurement) => number) => (id: ConfigId, path: string) => {
    const m = results.get(id)?.get(path)
    return m && !('error' in m) && m.runs.length ? pick(m) : Number.NaN
  }
  /** a ÷ b within each round (both measured in it), one ratio per round. */
  const perRound = (pick: (m: Measurement, round: number) => number) => (a: ConfigId, b: ConfigId, path: string) => {
    const ma = results.get(a)?.get(path)
    const mb = results.get(b)?.get(path)
    if (!ma || !mb || 'error' in ma || 'error' in mb) return []
    const n = Math.min(ma.runs.length, mb.runs.length)
    return Array.from({ length: n }, (_, i) => pick(ma, i) / pick(mb, i))
  }
  const ratios = servingRatios(configs, files, {
    rps: perRound((m, i) => m.runs[i]!.rps),
    bytes: medianOf((m) => medianRun(m).bytesPerResponse),
    // Hand-written ÷ generated reads "higher is better" like requests/s: the inverse of CPU time.
    cpu: perRound((m, i) => 1 / m.cpu[i]!),
  })
  part.targets.push(...ratios.targets)
  part.tables.push(ratios.table)
  return part
}
