import { defineClientConfig } from 'vuepress/client'
import '../../../../shared/site.css'
import Layout from './Layout.vue'

export default defineClientConfig({ layouts: { Layout } })
