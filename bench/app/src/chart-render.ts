import * as echarts from 'echarts'

export function renderChart(element: HTMLElement): void {
  const chart = echarts.init(element)
  const days = Array.from({ length: 60 }, (_, i) => `day ${i + 1}`)
  chart.setOption({
    tooltip: { trigger: 'axis' },
    legend: {},
    xAxis: { type: 'category', data: days },
    yAxis: { type: 'value' },
    series: [
      { name: 'gzip', type: 'line', data: days.map((_, i) => 300 + Math.sin(i / 5) * 40) },
      { name: 'brotli', type: 'line', data: days.map((_, i) => 240 + Math.cos(i / 7) * 30) },
      { name: 'zstd', type: 'bar', data: days.map((_, i) => 260 + ((i * 37) % 50)) },
    ],
  })
}
