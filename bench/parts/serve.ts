// Serving part: wrk on loopback against nginx and Apache, on-the-fly compression vs
// pre-compressed variants (hand-written gzip_static/brotli_static, and the configs that
// @preencode/server-config generates), on a ~400 KB HTML page and the playground's largest script.
import { chmod, cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { constants, brotliCompressSync, gzipSync } from 'node:zlib'
import { emptyPart, type PartResult, type Table } from '../lib/report.ts'
import type { BenchContext } from '../lib/context.ts'
import { buildLargePage } from '../lib/page.ts'
import { toolPath } from '@preencode/test-utils'
import type { Server } from '../lib/servers.ts'
import { generators } from '../lib/generated.ts'
import { serverConfigs, type ConfigId } from './serve-configs.ts'
import { ACCEPT_ENCODING, probe, runWrk, writeWrkScript, type Probe, type WrkResult } from '../lib/wrk.ts'
import { firstLine, fmtBytes, fmtInt, fmtRatio, importBuilt, ratio, runChild } from '../lib/util.ts'

const REPO_ROOT = resolve(import.meta.dirname, '..', '..')
const PLAYGROUND = join(REPO_ROOT, 'playground')
const WRK = { threads: 2, connections: 32, seconds: 5 }
const WRK_QUICK = { threads: 2, connections: 8, seconds: 1 }
/** Interleaved rounds per configuration and file in a full run; the median is reported. */
const ROUNDS = 3

interface Measurement {
  probe: Probe
  runs: WrkResult[]
}

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
    '`Accept-Encoding: br, gzip`; rounds are interleaved across configurations and the median round is reported.',
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
  const core = await importBuilt<{ compressDirectory: (d: string, o: object) => Promise<unknown> }>('@preencode/core', [
    'compressDirectory',
  ])
  let variantsBy: string
  if ('mod' in core) {
    await core.mod.compressDirectory(site, { formats: ['gzip', 'brotli', 'zstd'], cache: join(dir, 'cache') })
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
          else perFile.set(file.path, { probe: answer, runs: [] })
        }
      } catch (error) {
        for (const file of files) perFile.set(file.path, { error: `did not start: ${firstLine(error)}` })
        ctx.log(`serve: ${config.label} did not start: ${(error as Error).message}`)
      }
    }
    const rounds = ctx.quick ? 1 : ROUNDS
    for (let round = 1; round <= rounds; round++) {
      for (const config of configs) {
        const server = servers.get(config.id)
        if (!server) continue
        for (const file of files) {
          const m = results.get(config.id)!.get(file.path)!
          if ('error' in m) continue
          try {
            const wrk = await runWrk(server.url + file.path, wrkScript, wrkOptions)
            m.runs.push(wrk)
            ctx.log(
              `serve: round ${round}/${rounds} ${config.label} ${file.path}: ${fmtInt(wrk.rps)} req/s, ${m.probe.contentEncoding}, ${fmtInt(wrk.bytesPerResponse)} B/response`,
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
        rows.push([config.label, file.label, 'skipped', '', '', '', '', ''])
        continue
      }
      const m = results.get(config.id)?.get(file.path)
      if (!m || 'error' in m || m.runs.length === 0) {
        rows.push([config.label, file.label, `failed: ${m && 'error' in m ? m.error : '?'}`, '', '', '', '', ''])
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
        String(errors),
      ])
    }
  }
  const table: Table = {
    title: `Requests per second and bytes per response (wrk -t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.seconds}s -H 'Accept-Encoding: ${ACCEPT_ENCODING}', loopback; median of ${ctx.quick ? 1 : ROUNDS} interleaved round(s))`,
    columns: [
      'server and configuration',
      'file',
      'Content-Encoding',
      'body bytes',
      'bytes/response',
      'requests/s',
      'range',
      'errors',
    ],
    rows,
    notes: [
      ...files.map((f) => `${f.label}: ${f.path}, ${fmtBytes(f.bytes)} uncompressed`),
      `the script is the largest one in ${script.source}`,
      `variants: ${variantsBy}`,
      'bytes/response is what wrk read per response, headers included; body bytes is one probe GET with the same Accept-Encoding',
      'wrk and the server share the same 2 cores; nginx runs `worker_processes auto`, Apache the event MPM with its defaults; access logs off',
      ...configs.filter((c) => c.skip).map((c) => `${c.label}: skipped: ${c.skip}`),
    ],
  }
  part.tables.push(table)

  const rps = (id: ConfigId, path: string) => {
    const m = results.get(id)?.get(path)
    return m && !('error' in m) && m.runs.length ? medianRun(m).rps : Number.NaN
  }
  // Targets of issue 9: the content-independent configs (the default form, committed once).
  const comparisons: Array<{ label: string; a: ConfigId; b: ConfigId; min?: number; target?: string }> = [
    {
      label: 'generated nginx (stock, the default) / hand-written static',
      a: 'nginx-generated-stock',
      b: 'nginx-static',
      min: 0.9,
      target: 'generated nginx (stock) ≥ 0.9× hand-written static',
    },
    {
      label: 'generated nginx (stock, the default) / on-the-fly gzip 6',
      a: 'nginx-generated-stock',
      b: 'nginx-onthefly',
      min: 100,
      target: 'generated nginx (stock) ≥ 100× on-the-fly gzip',
    },
    {
      label: 'generated nginx (modules) / hand-written static',
      a: 'nginx-generated-modules',
      b: 'nginx-static',
      min: 0.9,
      target: 'generated nginx (modules) ≥ 0.9× hand-written static',
    },
    {
      label: 'generated nginx (modules) / on-the-fly gzip 6',
      a: 'nginx-generated-modules',
      b: 'nginx-onthefly',
      min: 100,
      target: 'generated nginx (modules) ≥ 100× on-the-fly gzip',
    },
    { label: 'hand-written static / on-the-fly gzip 6', a: 'nginx-static', b: 'nginx-onthefly' },
    {
      label: 'generated Apache (.htaccess) / mod_deflate',
      a: 'apache-generated-htaccess',
      b: 'apache-deflate',
      min: 40,
      target: 'generated Apache (.htaccess) ≥ 40× mod_deflate',
    },
    {
      label: 'generated Apache (vhost) / mod_deflate',
      a: 'apache-generated-vhost',
      b: 'apache-deflate',
      min: 40,
      target: 'generated Apache (vhost) ≥ 40× mod_deflate',
    },
  ]
  const ratioRows: string[][] = []
  for (const c of comparisons) {
    const cells = files.map((f) => ratio(rps(c.a, f.path), rps(c.b, f.path)))
    ratioRows.push([c.label, ...cells.map(fmtRatio)])
    if (c.target && c.min !== undefined) {
      files.forEach((f, i) => {
        const r = cells[i]!
        const why =
          configs.find((x) => x.id === c.a)?.skip ?? configs.find((x) => x.id === c.b)?.skip ?? 'a measurement failed'
        part.targets.push(
          Number.isFinite(r)
            ? {
                part: 'serve',
                target: `${c.target} (${f.label}, requests/s)`,
                measured: fmtRatio(r),
                pass: r >= c.min!,
              }
            : { part: 'serve', target: `${c.target} (${f.label}, requests/s)`, why },
        )
      })
    }
  }
  const bytesOf = (id: ConfigId, path: string) => {
    const m = results.get(id)?.get(path)
    return m && !('error' in m) && m.runs.length ? medianRun(m).bytesPerResponse : Number.NaN
  }
  ratioRows.push(
    ...(['nginx-static', 'nginx-generated-modules', 'nginx-generated-stock'] as ConfigId[]).map((id) => [
      `bytes/response: ${configs.find((c) => c.id === id)!.label} / on-the-fly gzip 6`,
      ...files.map((f) => fmtRatio(ratio(bytesOf(id, f.path), bytesOf('nginx-onthefly', f.path)))),
    ]),
    [
      'bytes/response: generated Apache (.htaccess) / mod_deflate',
      ...files.map((f) =>
        fmtRatio(ratio(bytesOf('apache-generated-htaccess', f.path), bytesOf('apache-deflate', f.path))),
      ),
    ],
  )
  part.tables.push({
    title: 'Serving ratios (requests/s unless marked bytes)',
    columns: ['ratio', ...files.map((f) => f.label)],
    rows: ratioRows,
  })
  return part
}

/** The playground's largest script: from playground/dist, else a fresh build of it, else bench/app's. */
async function largestPlaygroundScript(
  ctx: BenchContext,
  dir: string,
): Promise<{ path: string; name: string; source: string } | { why: string }> {
  const largest = async (dist: string) => {
    let best: { path: string; name: string; size: number } | undefined
    try {
      for (const entry of await readdir(dist, { withFileTypes: true, recursive: true })) {
        if (!entry.isFile() || !/\.m?js$/.test(entry.name)) continue
        const path = join(entry.parentPath, entry.name)
        const size = (await stat(path)).size
        if (!best || size > best.size) best = { path, name: entry.name, size }
      }
    } catch {
      /* no such directory */
    }
    return best
  }
  const existing = await largest(join(PLAYGROUND, 'dist'))
  if (existing) return { ...existing, source: 'playground/dist' }
  ctx.log('serve: playground/dist is missing; building the playground…')
  const out = join(dir, 'playground-dist')
  const run = await runChild(
    process.execPath,
    [join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', out, '--emptyOutDir'],
    { cwd: PLAYGROUND, timeoutMs: 10 * 60_000 },
  )
  const built = run.code === 0 ? await largest(out) : undefined
  if (built) return { ...built, source: 'playground, built by the bench' }
  const app = ctx.shared.benchAppDist ? await largest(ctx.shared.benchAppDist) : undefined
  if (app)
    return { ...app, source: `bench/app, because the playground did not build: ${firstLine(run.stderr || run.stdout)}` }
  return {
    why: `no playground script: playground/dist is missing and \`vite build\` in playground/ failed (${firstLine(run.stderr || run.stdout)})`,
  }
}
