// The full ECharts build (every chart type and component), not a tree-shaken subset.
import { renderChart } from './chart-render.ts'
import './style.css'

renderChart(document.getElementById('chart')!)
