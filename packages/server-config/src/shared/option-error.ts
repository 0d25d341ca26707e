/**
 * How a generator's resolver fails: one user error of server-config's, naming the option at fault
 * through core's `OptionLabel`, the one way every resolver names options. A direct call
 * (`nginxConfig(...)`) names the key (`` `flavor` ``); a plugin validating its `serverConfigs`
 * passes a label naming the entry (`` `serverConfigs[0].flavor` (nginx) ``) and the CLI one
 * naming its flags (`--flavor`), so the message is composed once, in its final words.
 */
import { type OptionLabel, userError } from '@preencode/core'

/** A direct call: an option is named by its key. */
export const KEY_LABEL: OptionLabel = (key) => (key ? `\`${key}\`` : 'the options')

export type Fail = (message: string) => never

/** Throws a user error naming a bad option (the message names it through a label). */
export const fail: Fail = (message) => {
  throw userError('server-config', message)
}
