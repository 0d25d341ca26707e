import { defineHandler } from 'nitro/h3'

export default defineHandler(() => ({ message: 'Hello World' }))
