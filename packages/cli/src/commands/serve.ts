import { open, stat } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { MANIFEST_FILENAME, readManifest, userError } from '@preencode/core'
import { CONVENTION_FLAGS, type ConventionOptions, createPreencodeHandler } from '@preencode/server-config'
import { defineCommand } from 'citty'
import { assertKnownFlags, parseInteger } from '../options/flags.js'
import { DEFAULT_SERVE_LIMITS } from '../serve/limits.js'
import { type ListenOptions, listen } from '../serve/listener.js'

const DEFAULT_HOST = '127.0.0.1'
const DEFAULT_PORT = 8080
/** A PEM certificate chain or key is a few KB: a larger file (or `/dev/zero`) is not one. */
const MAX_PEM_BYTES = 1024 * 1024

const args = {
  dir: { type: 'positional', description: 'The built folder (compressed by `preencode compress`)', required: true },
  host: { type: 'string', description: `Address to listen on (default ${DEFAULT_HOST})`, valueHint: 'host' },
  port: { type: 'string', description: `Port (default ${DEFAULT_PORT}; 0 picks a free one)`, valueHint: 'n' },
  cert: {
    type: 'string',
    description: 'PEM certificate (chain): HTTPS with HTTP/2, which dictionaries need',
    valueHint: 'file',
  },
  key: { type: 'string', description: "PEM private key of --cert's certificate", valueHint: 'file' },
  // The static-host conventions, the same flags as `preencode config` (the server registry's).
  'clean-urls': { type: 'string', ...describe('clean-urls') },
  spa: { type: 'string', ...describe('spa') },
} as const

function describe(flag: keyof typeof CONVENTION_FLAGS): { description: string; valueHint: string } {
  const { description, valueHint = 'on|off' } = CONVENTION_FLAGS[flag]
  return { description, valueHint }
}

/** The conventions the flags set; a missing path gets the site's 404.html, as on a static host. */
function conventionsOf(parsed: Record<string, unknown>): ConventionOptions {
  const options: Record<string, unknown> = {}
  const flags = { 'clean-urls': CONVENTION_FLAGS['clean-urls'], spa: CONVENTION_FLAGS.spa }
  for (const [flag, def] of Object.entries(flags)) {
    const text = parsed[flag]
    if (typeof text === 'string') options[def.option] = def.parse ? def.parse(text) : text
    else if (text === true) options[def.option] = true
  }
  for (const [flag, def] of Object.entries(flags))
    if (options[def.option] !== undefined && typeof options[def.option] !== 'boolean')
      throw userError('cli', `serve: --${flag} is ${JSON.stringify(parsed[flag])}; accepted: on, off.`)
  return options
}

/**
 * `preencode serve <dir>`: a static server for a built folder on `createPreencodeHandler` (the
 * serving specification every preencode server answers by). One line at start, the URL and
 * what it serves; runs until interrupted.
 */
export const serveCommand = defineCommand({
  meta: { name: 'serve', description: 'Serve a built folder with its precompressed variants (previews, small sites)' },
  args,
  async run({ args: parsed, rawArgs }) {
    assertKnownFlags(rawArgs, args)
    const root = resolve(parsed.dir)
    const files = await checkSite(root, parsed.dir)
    const host = parsed.host ?? DEFAULT_HOST
    // Node would listen on every interface, IPv4 and IPv6, for an empty host.
    if (host.trim() === '')
      throw userError(
        'cli',
        'serve: --host is empty; give an address, e.g. 127.0.0.1, ::1, or 0.0.0.0 for every interface.',
      )
    const port = parseInteger(parsed.port, 'port') ?? DEFAULT_PORT
    if (port < 0 || port > 65535) throw userError('cli', `--port must be 0 to 65535; got ${port}.`)
    const options: ListenOptions = { host, port }
    const tls = await readTls(parsed.cert, parsed.key)
    if (tls) options.tls = tls
    // A manifest naming paths out of the site, or cut short while serving: one line on stderr.
    const handler = createPreencodeHandler(root, {
      ...conventionsOf(parsed),
      fallthrough: false,
      onWarning: (message) => process.stderr.write(`${message}\n`),
    })
    const server = await listen(handler, options).catch((error: NodeJS.ErrnoException) => {
      throw listenError(error, options)
    })
    // Listening for the signals before the start line: whoever reads it may stop us at once. The
    // first stops gracefully (answers in flight finish); a second finds no listener and ends the
    // process at once, as the system's default does.
    const stopped = new Promise<void>((done) => {
      const stop = (signal: NodeJS.Signals): void => {
        process.off('SIGINT', stop)
        process.off('SIGTERM', stop)
        const grace = DEFAULT_SERVE_LIMITS.graceMs / 1000
        process.stderr.write(
          `preencode serve: ${signal}: stopping; answers in flight have ${grace} s to finish (a second signal stops at once)\n`,
        )
        server.close().then(done, done)
      }
      process.on('SIGINT', stop)
      process.on('SIGTERM', stop)
    })
    const shown = relative(process.cwd(), root) || '.'
    process.stdout.write(
      `preencode serve: ${server.url} serves ${shown} (${files} files${tls ? ', HTTPS with HTTP/2 and HTTP/1.1' : ''}); Ctrl+C stops\n`,
    )
    await stopped
  },
})

/** The folder must exist and hold a manifest; resolves to the number of files it lists. */
async function checkSite(root: string, given: string): Promise<number> {
  const info = await stat(root).catch(() => undefined)
  if (!info) throw userError('cli', `serve: ${given} does not exist; give the folder your build wrote (e.g. dist).`)
  if (!info.isDirectory()) throw userError('cli', `serve: ${given} is not a folder; give the folder your build wrote.`)
  const manifest = await stat(join(root, MANIFEST_FILENAME)).catch(() => undefined)
  if (!manifest)
    throw userError('cli', `serve: ${given} has no ${MANIFEST_FILENAME}; run \`preencode compress ${given}\` first.`)
  return (await readManifest(root)).files.length
}

async function readTls(cert: string | undefined, key: string | undefined): Promise<ListenOptions['tls']> {
  if (cert === undefined && key === undefined) return undefined
  if (cert === undefined || key === undefined)
    throw userError(
      'cli',
      `serve: --cert and --key go together; ${cert === undefined ? '--cert' : '--key'} is missing.`,
    )
  return { cert: await readPem(cert, 'cert'), key: await readPem(key, 'key') }
}

/** A PEM file read with a bound: one larger than MAX_PEM_BYTES (or endless) fails naming the flag. */
async function readPem(path: string, flag: string): Promise<Buffer> {
  const unreadable = (error: NodeJS.ErrnoException): Error =>
    userError('cli', `serve: --${flag} ${path} cannot be read (${error.code ?? error.message}).`, { cause: error })
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw unreadable(error)
  })
  try {
    const bytes = Buffer.alloc(MAX_PEM_BYTES + 1)
    let length = 0
    while (length < bytes.length) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, null).catch((error) => {
        throw unreadable(error)
      })
      if (bytesRead === 0) break
      length += bytesRead
    }
    if (length > MAX_PEM_BYTES)
      throw userError(
        'cli',
        `serve: --${flag} ${path} is over 1 MiB; give a PEM file (a certificate chain is a few KB).`,
      )
    return bytes.subarray(0, length)
  } finally {
    await handle.close().catch(() => {})
  }
}

/** One line for what keeps the server from starting. */
function listenError(error: NodeJS.ErrnoException, options: ListenOptions): Error {
  const where = `${options.host}:${options.port}`
  const said: Record<string, string> = {
    EADDRINUSE: `port ${options.port} on ${options.host} is in use; pick another with --port (0 picks a free one).`,
    EACCES: `no permission to listen on ${where} (ports below 1024 need privileges); pick another --port.`,
    EADDRNOTAVAIL: `--host ${options.host} is not an address of this machine.`,
    ENOTFOUND: `--host ${options.host} does not resolve to an address.`,
  }
  const known = error.code === undefined ? undefined : said[error.code]
  if (known) return userError('cli', `serve: ${known}`, { cause: error })
  // A PEM that does not parse, or a key that is not the certificate's: OpenSSL says which.
  if (options.tls && (error.code?.startsWith('ERR_OSSL') || /PEM|key|certificate/i.test(error.message)))
    return userError('cli', `serve: --cert/--key cannot be used: ${error.message}.`, { cause: error })
  return error
}
