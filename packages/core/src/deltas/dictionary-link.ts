// The `<link rel="compression-dictionary">` preencode writes into pages, for its two site
// dictionaries (the page dictionary and the asset dictionary): one link of each kind at most,
// relative href, replaced on a rerun, never added beside someone else's dictionary link.

/** Which of our dictionaries a link names. */
export type DictionaryLinkKind = 'page' | 'assets'

const LINK_MARKER = 'rel="compression-dictionary"'
/** Our own links, as `relink` writes them (for pages, any earlier name, the stable one of older versions included). */
const OUR_LINKS: Record<DictionaryLinkKind, RegExp> = {
  page: /<link rel="compression-dictionary" href="(?:\.\.\/)*preencode-dictionary(?:-[0-9a-f]{16})?\.txt">/g,
  assets: /<link rel="compression-dictionary" href="(?:\.\.\/)*preencode-assets-[0-9a-f]{16}\.txt">/g,
}

/** The page without any link preencode wrote: what the site's own dictionaries are built from. */
export function withoutOurLinks(html: string): string {
  return html.replace(OUR_LINKS.page, '').replace(OUR_LINKS.assets, '')
}

/** The page with our `kind` link naming `href`: replaced where there is one, added after `<head>` where there is none. */
export function relink(html: string, kind: DictionaryLinkKind, href: string): string {
  const tag = `<link ${LINK_MARKER} href="${href}">`
  const ours = OUR_LINKS[kind]
  ours.lastIndex = 0
  if (ours.test(html)) return html.replace(ours, tag)
  // Someone else's compression dictionary: leave the page alone.
  if (withoutOurLinks(html).includes(LINK_MARKER)) return html
  const head = /<head(?:\s[^>]*)?>/i.exec(html)
  if (!head) return html
  const at = head.index + head[0].length
  return `${html.slice(0, at)}${tag}${html.slice(at)}`
}

/** `docs/a/index.html` -> `../../<name>`: the href of a root file from a page. */
export function hrefFrom(page: string, name: string): string {
  const depth = page.split('/').length - 1
  return `${'../'.repeat(depth)}${name}`
}
