// The CloudFront Function's share of the static-host conventions (issue 36): the KeyValueStore
// names what an extensionless path is, the function rewrites a page to its .html (negotiated like
// any HTML) and, with `spa`, an unknown extensionless path to /index.html. The 404 page is the
// distribution's custom error response, which no viewer-request function sees.

import type { Manifest } from '@preencode/core'
import { cloudfrontFunction, cloudfrontKeyValueStore } from '@preencode/server-config'
import { describe, expect, it } from 'vitest'
import { loadCloudfrontFunction, manifestFile, viewerRequest } from './vm.js'

const manifest = {
  version: 1,
  generator: 'preencode@test',
  formats: ['brotli', 'zstd', 'gzip'],
  files: [
    manifestFile('index.html', ['br', 'zstd', 'gzip']),
    manifestFile('contact.html', ['br', 'zstd', 'gzip']),
    manifestFile('guide/start.html', ['br', 'gzip']),
    manifestFile('about/index.html', ['br', 'zstd', 'gzip']),
    manifestFile('about.html', ['br', 'zstd', 'gzip']),
    manifestFile('LICENSE', []),
  ],
} as unknown as Manifest

function handlerFor(options: Parameters<typeof cloudfrontFunction>[1] = {}) {
  return loadCloudfrontFunction(cloudfrontFunction(manifest, options), cloudfrontKeyValueStore(manifest, options))
}

describe('CloudFront Function: static-host conventions', () => {
  it('the store names objects and contested directories; with spa, pages and every directory too', () => {
    const entries = (options = {}) =>
      Object.fromEntries(
        (JSON.parse(cloudfrontKeyValueStore(manifest, options)) as { data: { key: string; value: string }[] }).data
          .filter((e) => /^[^.]+$/.test(e.key))
          .map((e) => [e.key, e.value]),
      )
    expect(entries()).toEqual({ about: '/', LICENSE: '!' })
    expect(entries({ spa: true })).toEqual({
      about: '/',
      'about/index': '@',
      contact: '@',
      'guide/start': '@',
      index: '@',
      LICENSE: '!',
    })
  })

  it('/contact is contact.html with its variant; /about (a directory) and /LICENSE are left alone', async () => {
    const handler = handlerFor()
    const contact = await handler(viewerRequest('/contact', { 'accept-encoding': 'br' }))
    expect(contact.uri).toBe('/contact.html.br')
    expect((await handler(viewerRequest('/guide/start', { 'accept-encoding': 'zstd' }))).uri).toBe('/guide/start.html')
    expect((await handler(viewerRequest('/guide/start', { 'accept-encoding': 'gzip' }))).uri).toBe(
      '/guide/start.html.gz',
    )
    expect((await handler(viewerRequest('/about', { 'accept-encoding': 'br' }))).uri).toBe('/about')
    expect((await handler(viewerRequest('/LICENSE', { 'accept-encoding': 'br' }))).uri).toBe('/LICENSE')
    // A page S3 does not have: its miss, as before, answered by the custom error response (404.html).
    expect((await handler(viewerRequest('/missing', { 'accept-encoding': 'br' }))).uri).toBe('/missing.html.br')
  })

  it('spa: an unknown extensionless path is /index.html with its variant; cleanUrls: false leaves /contact', async () => {
    const spa = handlerFor({ spa: true })
    expect((await spa(viewerRequest('/app/route', { 'accept-encoding': 'br' }))).uri).toBe('/index.html.br')
    expect((await spa(viewerRequest('/contact', { 'accept-encoding': 'br' }))).uri).toBe('/contact.html.br')
    expect((await spa(viewerRequest('/LICENSE', { 'accept-encoding': 'br' }))).uri).toBe('/LICENSE')
    expect((await spa(viewerRequest('/app.js', { 'accept-encoding': 'br' }))).uri).toBe('/app.js.br')
    const off = handlerFor({ cleanUrls: false })
    expect((await off(viewerRequest('/contact', { 'accept-encoding': 'br' }))).uri).toBe('/contact')
  })
})
