// `verify` against a URL nothing answers would print one failed check per file and coding (a
// table of ECONNREFUSED); one request first turns that into one line.
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { userError } from '@preencode/core'

const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused (nothing listens there)',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'no complete answer in time',
}

/**
 * Resolves once the server at `url` answers anything at all (any status); fails in one line
 * otherwise. `timeoutName` names the timeout setting as the user set it.
 */
export async function assertReachable(url: string, timeoutMs = 30_000, timeoutName = '--timeout'): Promise<void> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw userError('verify', `\`${url}\` is not a URL; give where the site is served, e.g. https://example.com/.`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw userError(
      'verify',
      `\`${url}\` is not an http(s) URL; give where the site is served, e.g. https://example.com/.`,
    )
  }
  const request = parsed.protocol === 'https:' ? httpsRequest : httpRequest
  await new Promise<void>((resolve, reject) => {
    // A whole-answer timer, not an idle timeout: a server sending its headers a byte at a time
    // never lets a socket go idle.
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), timeoutMs)
    const req = request(parsed, { method: 'HEAD', headers: { 'user-agent': 'preencode-verify' } }, (res) => {
      clearTimeout(timer)
      res.resume()
      resolve()
    })
    req.on('close', () => clearTimeout(timer))
    req.on('error', (error: NodeJS.ErrnoException) => {
      const why = `${(error.code && REASONS[error.code]) ?? error.message}${error.code === 'ETIMEDOUT' ? ` (${timeoutName})` : ''}`
      reject(
        userError(
          'verify',
          `Cannot reach ${parsed.origin}: ${why}${error.code ? ` (${error.code})` : ''}. Is the server running, and is the URL right?`,
          { cause: error, code: 'TARGET_FAILED' },
        ),
      )
    })
    req.end()
  })
}
