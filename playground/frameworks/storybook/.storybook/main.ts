import type { StorybookConfig } from '@storybook/react-vite'

// Storybook's react-vite template with `staticDirs: ['../public']`: Storybook copies public/
// into storybook-static/ while Vite (whose publicDir is public/ too) copies it as well.
const config: StorybookConfig = {
  stories: ['../src/**/*.stories.tsx'],
  framework: { name: '@storybook/react-vite', options: {} },
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
}
export default config
