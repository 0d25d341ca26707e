import { ViteSSG } from 'vite-ssg'
import '../../shared/site.css'
import App from './App.vue'
import About from './pages/About.vue'
import Home from './pages/Home.vue'

const routes = [
  { path: '/', component: Home },
  { path: '/about', component: About },
]

export const createApp = ViteSSG(App, { routes })
