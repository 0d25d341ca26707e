/** The source of the playground's catalogue module (see make-catalog.mjs). */
export function catalogSource(): string
