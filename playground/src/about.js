import './style.css'
import { EXPECTED, mark, showWhenReady } from './markers.js'

mark('about')
showWhenReady(EXPECTED.about)
