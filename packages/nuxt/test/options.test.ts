// The module's options (the real `nuxt generate` with the module is the e2e test e2e/frameworks/).

import { DEFAULT_DELTA_OPTIONS } from '@preencode/core'
import { resolvePreencodeNuxtOptions } from '@preencode/nuxt'
import { describe, expect, it } from 'vitest'

describe('@preencode/nuxt options', () => {
  it('resolves paths against the project root', () => {
    const resolved = resolvePreencodeNuxtOptions(
      { serverConfigs: [{ server: 'apache', path: '.output/public/.htaccess' }] },
      '/srv/app',
    )
    expect(resolved.serverConfigs[0]!.path).toBe('/srv/app/.output/public/.htaccess')
    expect(resolved.report).toBe(true)
  })

  it('hands the shared build options to the build runner: delta updates on by default, off with deltas: false', () => {
    const resolved = resolvePreencodeNuxtOptions({}, '/srv/app')
    expect(resolved.deltas).toMatchObject({ versions: DEFAULT_DELTA_OPTIONS.versions, encodings: ['dcb', 'dcz'] })
    expect(resolvePreencodeNuxtOptions({ deltas: { versions: 2 } }, '/srv/app').deltas).toMatchObject({ versions: 2 })
    expect(resolvePreencodeNuxtOptions({ deltas: false }, '/srv/app').deltas).toBe(false)
  })

  it('fails with one line naming the option', () => {
    expect(() => resolvePreencodeNuxtOptions({ report: 'no' } as never, '/srv/app')).toThrow(
      /\[preencode\] \[nuxt\] `report` is "no"/,
    )
    expect(() => resolvePreencodeNuxtOptions({ serverConfigs: {} } as never, '/srv/app')).toThrow(
      /\[nuxt\] `serverConfigs` must be an array/,
    )
    expect(() => resolvePreencodeNuxtOptions({ treshold: 10 } as never, '/srv/app')).toThrow(/treshold/)
  })
})
