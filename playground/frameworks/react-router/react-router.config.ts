import type { Config } from '@react-router/dev/config'

// Static prerendering: every static route is written to build/client as HTML at build time.
export default { ssr: false, prerender: true } satisfies Config
