/**
 * The static-host conventions' options checked (`http/conventions.ts` holds the rule; this file
 * the resolver, which names the option at fault through core's `OptionLabel`). Apart from the
 * rule so the Worker's runtime bundle, which needs only the rule, carries no error factory.
 */
import type { OptionLabel } from '@preencode/core'
import { type ConventionOptions, DEFAULT_CONVENTIONS, type ResolvedConventions } from '../http/conventions.js'
import { fail, KEY_LABEL } from './option-error.js'

/** Validates `cleanUrls` and `spa`, naming the option at fault. */
export function resolveConventions(options: ConventionOptions, label: OptionLabel = KEY_LABEL): ResolvedConventions {
  const out: ResolvedConventions = { ...DEFAULT_CONVENTIONS }
  for (const key of ['cleanUrls', 'spa'] as const) {
    const value = options[key]
    if (value === undefined) continue
    if (typeof value !== 'boolean') fail(`${label(key)} is ${JSON.stringify(value)}; accepted: true, false.`)
    out[key] = value
  }
  return out
}

/**
 * The conventions and `notFoundPage` of a generator's options, checked with the caller's label
 * (the registry's: a flag is named `--spa`), before the generator resolves them again.
 */
export function checkServingConventions(
  options: ConventionOptions & { notFoundPage?: unknown },
  label: OptionLabel = KEY_LABEL,
): ResolvedConventions & { notFoundPage: boolean } {
  const notFoundPage = options.notFoundPage ?? true
  if (typeof notFoundPage !== 'boolean')
    fail(`${label('notFoundPage')} is ${JSON.stringify(notFoundPage)}; accepted: true, false.`)
  return { ...resolveConventions(options, label), notFoundPage }
}

/** A CLI flag of the conventions: the shape of the registry's `ServerFlag`. */
export interface ConventionFlag {
  option: 'cleanUrls' | 'spa' | 'notFoundPage'
  description: string
  valueHint: string
  parse: (value: string) => unknown
}

/** `--clean-urls` with no value, `true` or `on` is true; `false` or `off` false; anything else is left for the resolver to refuse. */
function parseSwitch(value: string): unknown {
  if (['', 'true', 'on'].includes(value)) return true
  if (['false', 'off'].includes(value)) return false
  return value
}

/**
 * The static-host conventions' flags (`http/conventions.ts`), the same for every server that
 * takes them; `preencode serve` takes `clean-urls` and `spa` (it always answers with the 404 page).
 */
export const CONVENTION_FLAGS: Readonly<Record<'clean-urls' | 'spa' | 'not-found-page', ConventionFlag>> =
  Object.freeze({
    'clean-urls': {
      option: 'cleanUrls',
      description: '/about answers about.html when there is no about/ (default on; off to turn off)',
      valueHint: 'on|off',
      parse: parseSwitch,
    },
    spa: {
      option: 'spa',
      description: 'single-page app: unknown extensionless paths get /index.html with 200 (default off)',
      valueHint: 'on|off',
      parse: parseSwitch,
    },
    'not-found-page': {
      option: 'notFoundPage',
      description: "missing paths get the site's 404.html with 404 (default on; off leaves them to your server block)",
      valueHint: 'on|off',
      parse: parseSwitch,
    },
  })
