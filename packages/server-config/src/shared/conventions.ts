/**
 * The static-host conventions' options checked (`http/conventions.ts` holds the rule; this file
 * the resolver, which names the option at fault through core's `OptionLabel`). Apart from the
 * rule so the Worker's runtime bundle, which needs only the rule, carries no error factory.
 */
import type { OptionLabel } from '@preencode/core'
import { DEFAULT_CONVENTIONS, type ConventionOptions, type ResolvedConventions } from '../http/conventions.js'
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
