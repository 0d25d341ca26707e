import { ViteReactSSG } from 'vite-react-ssg'
import '../../shared/site.css'
import { routes } from './routes.tsx'

export const createRoot = ViteReactSSG({ routes })
