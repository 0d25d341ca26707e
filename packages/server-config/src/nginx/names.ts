/**
 * Names the nginx config defines, all under one prefix: nginx refuses a variable defined twice,
 * so two preencode sites in one nginx need different prefixes.
 */

export interface NginxNames {
  readonly prefix: string
  /** `$<prefix>_<name>` */
  v(name: string): string
  /** Internal URI of a stage, e.g. `/.preencode/2` (a miss appends the requested URL). */
  stage(stage: string): string
  /** The regex of a stage's nested location. */
  stagePattern(stage: string): string
}

export function nginxNames(prefix: string): NginxNames {
  return {
    prefix,
    v: (name) => `$${prefix}_${name}`,
    stage: (stage) => `/.${prefix}/${stage}`,
    stagePattern: (stage) => `^/\\.${prefix}/${stage}/`,
  }
}

/** A double-quoted nginx string. */
export function nginxString(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`
}
