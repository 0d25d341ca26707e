import type { Meta, StoryObj } from '@storybook/react-vite'
import { Status } from './Status.tsx'

const meta: Meta<typeof Status> = { title: 'Example/Status', component: Status }
export default meta

export const Default: StoryObj<typeof Status> = { args: { icons: 800 } }
