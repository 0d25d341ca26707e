import type { Config } from '@react-router/dev/config'

// SPA mode: one build/client/index.html shell; routes render in the browser.
export default { ssr: false } satisfies Config
