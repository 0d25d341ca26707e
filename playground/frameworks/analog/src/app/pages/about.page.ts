import { Component } from '@angular/core'

@Component({
  selector: 'app-about',
  template: `
    <h1>About</h1>
    <p>A second prerendered page: Analog's Nitro step writes it into dist/analog/public.</p>
  `,
})
export default class AboutComponent {}
