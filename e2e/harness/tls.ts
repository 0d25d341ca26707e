// The HTTPS set-up of the e2e run, as production has it: a CA of our own and a certificate for
// a name that is not localhost (so Chromium takes its real secure-context path, not the
// localhost exception), made with openssl into the run's temporary folder (no key is ever
// committed). Chromium trusts the leaf by its SPKI hash and resolves the name to 127.0.0.1.
import { spawnSync } from 'node:child_process'
import { createHash, X509Certificate } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The site's name in every HTTPS project; mapped to 127.0.0.1 by Chromium and by our clients. */
export const TLS_HOST = 'www.preencode.test'
export const TLS_ENV = 'PREENCODE_E2E_TLS'

export interface TlsFiles {
  /** PEM files: the CA certificate, the leaf certificate (with the CA after it) and its key. */
  ca: string
  cert: string
  key: string
  /** base64 SHA-256 of the leaf's SubjectPublicKeyInfo, for --ignore-certificate-errors-spki-list. */
  spki: string
}

function openssl(args: string[], cwd: string): void {
  const run = spawnSync('openssl', args, { cwd, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`openssl ${args.join(' ')} failed:\n${run.stderr}`)
}

/** Makes the CA and the leaf for TLS_HOST in `dir` (EC P-256, valid for a week). */
export function makeCertificates(dir: string): TlsFiles {
  const ext = join(dir, 'leaf.ext')
  writeFileSync(
    ext,
    [
      `subjectAltName = DNS:${TLS_HOST}`,
      'basicConstraints = critical, CA:FALSE',
      'keyUsage = critical, digitalSignature',
      'extendedKeyUsage = serverAuth',
      '',
    ].join('\n'),
  )
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes']
  openssl(
    ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '7', '-subj', '/CN=preencode e2e CA'],
    dir,
  )
  openssl(['req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', `/CN=${TLS_HOST}`], dir)
  openssl(
    ['x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '7'].concat([
      '-extfile',
      ext,
      '-out',
      'leaf.pem',
    ]),
    dir,
  )
  const leaf = readFileSync(join(dir, 'leaf.pem'), 'utf8')
  writeFileSync(join(dir, 'chain.pem'), leaf + readFileSync(join(dir, 'ca.pem'), 'utf8'))
  const spkiDer = new X509Certificate(leaf).publicKey.export({ type: 'spki', format: 'der' })
  return {
    ca: join(dir, 'ca.pem'),
    cert: join(dir, 'chain.pem'),
    key: join(dir, 'leaf.key'),
    spki: createHash('sha256').update(spkiDer).digest('base64'),
  }
}

/** The run's certificates (made by globalSetup; workers get its environment). */
export function tlsFiles(): TlsFiles {
  const raw = process.env[TLS_ENV]
  if (!raw)
    throw new Error(`${TLS_ENV} is not set: run through e2e/playwright.config.ts (globalSetup makes the certificates)`)
  return JSON.parse(raw) as TlsFiles
}

/** The origin of a server on `port`: the HTTPS name, or 127.0.0.1 over plain HTTP. */
export function originOf(port: number, tls: boolean): string {
  return tls ? `https://${TLS_HOST}:${port}` : `http://127.0.0.1:${port}`
}

/**
 * Chromium uses compression dictionaries over HTTPS only when the certificate chains to a
 * publicly trusted ("known") root, or on localhost (measured here: with our CA and this check
 * on, every delta and page-dictionary request came back as plain br). A site with a public
 * certificate needs nothing; for our private CA this one check is switched off (transport.ts
 * adds it to `--disable-features`), and everything else — HTTPS, a name that is not localhost,
 * the secure context — is production's path.
 */
export const DICTIONARY_FEATURE = 'CompressionDictionaryTransportRequireKnownRootCert'

/** Chromium's flags for the HTTPS projects: trust our leaf, resolve TLS_HOST to 127.0.0.1. */
export function chromiumTlsArgs(): string[] {
  return [`--ignore-certificate-errors-spki-list=${tlsFiles().spki}`, `--host-resolver-rules=MAP ${TLS_HOST} 127.0.0.1`]
}
