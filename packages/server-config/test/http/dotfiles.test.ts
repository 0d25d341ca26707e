// The dotfile rule (issue 19, item 5) as each config spells it decides the same on a table of
// paths; every generator carries it. (Imports the patterns from source: they are not public.)
// Each real server answering 404 is proven by the shared e2e suite (e2e/tests/serving.spec.ts).

import type { Manifest } from '@preencode/core'
import { apacheConfig, caddyConfig, nginxConfig } from '@preencode/server-config'
import { describe, expect, it } from 'vitest'
import { MANIFEST_VERSION } from '../../../core/src/manifest/manifest.js'
import {
  DOTFILE_RELATIVE_PCRE,
  DOTFILE_URL_PCRE,
  DOTFILE_URL_RE2,
  isDotPath,
  WELL_KNOWN_URL_RE2,
} from '../../src/http/dotfiles.ts'

const REFUSED = [
  '/.env',
  '/.preencode-manifest.json',
  '/.preencode-deploy-state.json',
  '/.preencode-tmp-0123456789ab',
  '/assets/.main-Ab3dEf9h.js.tmp-1234-abcd',
  '/.git/config',
  '/.git/',
  '/docs/.secret.json',
  '/a/b/c/.htpasswd',
  '/.well-known/.hidden',
  '/.well-known/acme-challenge/.x',
  '/.well-known',
  '/.wellknown/x',
  '/sub/.well-known/security.txt',
  '//.env',
  '/v1.2/.../',
  '/a/../.env',
  '/..',
]
const SERVED = [
  '/',
  '/index.html',
  '/assets/app-Ab3dEf9h.js',
  '/a.b/c.d',
  '/file.',
  '/.well-known/security.txt',
  '/.well-known/acme-challenge/AbC-123_x',
  '/.well-known/',
  '/assets/app.js.dict/ab/cd=.js.dcb',
  '/files/naïve café (1).json',
]

/** Caddy's matcher pair: a dot segment, and not the served form of /.well-known/. */
const caddyRefuses = (path: string): boolean =>
  new RegExp(DOTFILE_URL_RE2).test(path) && !new RegExp(WELL_KNOWN_URL_RE2).test(path)

describe('the dotfile rule', () => {
  it.each(REFUSED)('refuses %s in every spelling', (path) => {
    expect(isDotPath(path)).toBe(true)
    expect(new RegExp(DOTFILE_URL_PCRE).test(path)).toBe(true)
    expect(new RegExp(DOTFILE_RELATIVE_PCRE).test(path.slice(1))).toBe(true)
    expect(caddyRefuses(path)).toBe(true)
  })

  it.each(SERVED)('serves %s in every spelling', (path) => {
    expect(isDotPath(path)).toBe(false)
    expect(new RegExp(DOTFILE_RELATIVE_PCRE).test(path.slice(1))).toBe(false)
    expect(caddyRefuses(path)).toBe(false)
  })

  it('every generated config carries it, before any rule that serves a file', () => {
    const manifest: Manifest = {
      version: MANIFEST_VERSION,
      generator: 'preencode@test',
      formats: ['gzip', 'brotli', 'zstd'],
      files: [],
    }
    const nginx = nginxConfig(manifest, { root: '/srv/site' })
    const rule = `location ~ "${DOTFILE_URL_PCRE.replace(/\\/g, '\\\\')}" { return 404; }`
    expect(nginx).toContain(rule)
    expect(nginx.indexOf('location ~'), 'the first regex location').toBe(nginx.indexOf(rule))
    const htaccess = apacheConfig(manifest)
    expect(htaccess).toContain(`RewriteRule "${DOTFILE_RELATIVE_PCRE}" - [R=404,L]`)
    expect(htaccess.indexOf(DOTFILE_RELATIVE_PCRE)).toBeLessThan(htaccess.indexOf('RewriteRule "(?i)'))
    const vhost = apacheConfig(manifest, { form: 'vhost', root: '/srv/site' })
    expect(vhost).toContain(`RewriteRule "${DOTFILE_URL_PCRE}" - [R=404,L]`)
    const caddy = caddyConfig(manifest, { root: '/srv/site' })
    expect(caddy).toContain(`path_regexp \`${DOTFILE_URL_RE2}\``)
    expect(caddy).toContain(`not path_regexp \`${WELL_KNOWN_URL_RE2}\``)
    expect(caddy).toContain('error @preencode_dotfiles 404')
  })
})
