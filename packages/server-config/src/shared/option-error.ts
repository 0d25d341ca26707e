/**
 * Who reports a bad generator option. A direct call (`nginxConfig(...)`, `preencode config`)
 * reports as `server-config`; a plugin validating its `serverConfigs` passes its own component
 * and the entry at fault, so the message is composed once, in its final words, rather than
 * re-worded afterwards.
 */
import { userError, type ErrorComponent } from '@preencode/core'

/** Where options came from, for their error messages: the entry point and how it names an option. */
export interface OptionSource {
  /** The `[preencode] [component]` of the message. */
  readonly component: ErrorComponent
  /** Put before the message, e.g. "`serverConfigs[0]` (nginx)". */
  readonly where?: string
}

/** A direct call of a generator or resolver. */
export const DIRECT_CALL: OptionSource = Object.freeze({ component: 'server-config' })

/** A `fail(message)` for a resolver: throws a user error worded for `source`. */
export function optionFailure(source: OptionSource = DIRECT_CALL, lead = ''): (message: string) => never {
  return (message) => {
    throw userError(source.component, `${source.where ? `${source.where}: ` : ''}${lead}${message}`)
  }
}
