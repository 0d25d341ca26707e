// wrk (Debian's /usr/bin/wrk) with a Lua `done` hook that prints exact totals as JSON, and a
// single probe request that records what the server actually answered.
import { writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { toolPath } from '@preencode/test-utils'
import { runChild } from './util.ts'

export const ACCEPT_ENCODING = 'br, gzip'

export interface WrkResult {
  requests: number
  bytes: number
  durationS: number
  rps: number
  bytesPerResponse: number
  /** Non-2xx/3xx answers, connect/read/write errors and timeouts, summed. */
  errors: number
}

export interface Probe {
  status: number
  contentEncoding: string
  contentType: string
  vary: string
  bodyBytes: number
}

const REPORT_LUA = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"bytes":%d,"duration_us":%d,"errors":%d}\\n',
    summary.requests, summary.bytes, summary.duration, e.connect + e.read + e.write + e.status + e.timeout))
end
`

export async function writeWrkScript(dir: string): Promise<string> {
  const path = join(dir, 'report.lua')
  await writeFile(path, REPORT_LUA)
  return path
}

export async function runWrk(
  url: string,
  script: string,
  options: { threads: number; connections: number; seconds: number },
): Promise<WrkResult> {
  const args = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--timeout',
    '10s',
    '-H',
    `Accept-Encoding: ${ACCEPT_ENCODING}`,
    '-s',
    script,
    url,
  ]
  const run = await runChild(toolPath('wrk'), args, { timeoutMs: (options.seconds + 30) * 1000 })
  const line = run.stdout.split('\n').find((l) => l.startsWith('WRK_JSON '))
  if (run.code !== 0 || !line)
    throw new Error(`wrk ${args.join(' ')} failed (${run.code ?? run.signal}): ${run.stderr || run.stdout}`)
  const raw = JSON.parse(line.slice('WRK_JSON '.length)) as {
    requests: number
    bytes: number
    duration_us: number
    errors: number
  }
  const durationS = raw.duration_us / 1e6
  return {
    requests: raw.requests,
    bytes: raw.bytes,
    durationS,
    rps: raw.requests / durationS,
    bytesPerResponse: raw.requests ? raw.bytes / raw.requests : Number.NaN,
    errors: raw.errors,
  }
}

/** One GET with the same Accept-Encoding as wrk: what encoding and how many body bytes. */
export function probe(url: string): Promise<Probe> {
  return new Promise((resolveProbe, reject) => {
    const req = request(url, { headers: { 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
      let bodyBytes = 0
      res.on('data', (d: Buffer) => {
        bodyBytes += d.length
      })
      res.on('end', () =>
        resolveProbe({
          status: res.statusCode ?? 0,
          contentEncoding: String(res.headers['content-encoding'] ?? 'identity'),
          contentType: String(res.headers['content-type'] ?? ''),
          vary: String(res.headers.vary ?? ''),
          bodyBytes,
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${url} in 30 s`)))
    req.end()
  })
}
