// The package's rooms: generators, the Node runtime and the HTTP checker apart, each folder
// importing only folders below it (http < shared < one folder per server, node, verify; the
// Fetch handler above node, whose site on disk it serves), the registry, render, config-files
// and index on top; no import cycle, type-only ones included.
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
      node: BELOW_SERVERS,
      fetch: [...BELOW_SERVERS, 'node'],
      verify: BELOW_SERVERS,
    }),
  ).toEqual({ unknownFolders: [], upward: [], cycles: [] })
})
