// How an option is named in a message: where the user wrote it, in the words they used. Every
// options resolver (compress, deltas, build, deploy) takes one label and names the option at fault
// through it, so a message is composed once, already in the user's terms.

/**
 * How an option is named in messages, where the user wrote it: the option's key in code
 * (`` `deltas.versions` ``), a flag (`--delta-versions`), a config file's key
 * (`preencode.config.json: compress.levels.brotli`). Every resolver takes one; `label('')` names
 * the whole group. The one way options are named at fault.
 */
export type OptionLabel = (key: string) => string

/** Code's names: `` `threshold` ``, `` `levels.brotli` ``. */
export const KEY_LABEL: OptionLabel = (key) => `\`${key}\``

/** A group's keys under its name: `within('deltas', label)('versions')` is `label('deltas.versions')`. */
export function within(group: string, label: OptionLabel): OptionLabel {
  return (key) => label(key ? `${group}.${key}` : group)
}
