import { Component, signal } from '@angular/core'

@Component({
  selector: 'app-home',
  template: `
    <h1>Analog</h1>
    <p>The home page of the preencode Analog fixture, prerendered at build time.</p>
    <button type="button" (click)="count.set(count() + 1)">Count {{ count() }}</button>
  `,
})
export default class HomeComponent {
  protected readonly count = signal(0)
}
