// The package's rooms: generators, the site on disk and the HTTP checker apart, each folder
// importing only folders below it (http < shared < one folder per server, site, verify; the
// Node middleware (node/) and the Fetch handler (fetch/) adapters above site, whose site on
// disk they serve), the registry, render, config-files and index on top; no import cycle,
// type-only ones included.
import { join } from 'node:path'
import { layoutViolations } from '@preencode/test-utils'
import { expect, it } from 'vitest'

const BELOW_SERVERS = ['shared', 'http']

it('each folder imports only folders below it, with no import cycle', () => {
  expect(
    layoutViolations(join(import.meta.dirname, '../src'), {
      http: [],
      shared: ['http'],
      nginx: BELOW_SERVERS,
      apache: BELOW_SERVERS,
      caddy: BELOW_SERVERS,
      cloudfront: BELOW_SERVERS,
      varnish: BELOW_SERVERS,
      cloudflare: BELOW_SERVERS,
      site: BELOW_SERVERS,
      node: [...BELOW_SERVERS, 'site'],
      fetch: [...BELOW_SERVERS, 'site'],
      verify: BELOW_SERVERS,
    }),
  ).toEqual({ unknownFolders: [], upward: [], cycles: [] })
})
