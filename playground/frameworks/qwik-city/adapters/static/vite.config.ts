import { staticAdapter } from '@builder.io/qwik-city/adapters/static/vite'
import { extendConfig } from '@builder.io/qwik-city/vite'
import baseConfig from '../../vite.config.ts'

// `qwik add static`: the server build (`build.server`) prerenders every page into dist/.
export default extendConfig(baseConfig, () => ({
  build: { ssr: true, rollupOptions: { input: ['@qwik-city-plan'] } },
  plugins: [staticAdapter({ origin: 'https://example.com' })],
}))
