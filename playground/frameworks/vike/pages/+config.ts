import type { Config } from 'vike/types'
import vikeReact from 'vike-react/config'

// Static prerendering: every page is written to dist/client as HTML at build time.
export default {
  title: 'preencode fixture: Vike',
  extends: [vikeReact],
  prerender: true,
} satisfies Config
