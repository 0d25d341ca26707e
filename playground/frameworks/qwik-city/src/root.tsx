import { component$ } from '@builder.io/qwik'
import { QwikCityProvider, RouterOutlet } from '@builder.io/qwik-city'
import { RouterHead } from './components/router-head'
import '../../shared/site.css'

export default component$(() => (
  <QwikCityProvider>
    <head>
      <meta charset="utf-8" />
      <RouterHead />
    </head>
    <body lang="en">
      <RouterOutlet />
    </body>
  </QwikCityProvider>
))
