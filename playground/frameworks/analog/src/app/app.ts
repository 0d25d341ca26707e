import { DOCUMENT } from '@angular/common'
import { afterNextRender, Component, inject, signal } from '@angular/core'
import { RouterLink, RouterOutlet } from '@angular/router'

@Component({
  selector: 'app-root',
  imports: [RouterOutlet, RouterLink],
  template: `
    <nav><a routerLink="/">Home</a> · <a routerLink="/about">About</a></nav>
    <main><router-outlet /></main>
    <p id="script-status">{{ status() }}</p>
  `,
})
export class AppComponent {
  protected readonly status = signal('script not run')

  constructor() {
    const document = inject(DOCUMENT)
    // Browser only: never runs while the page is prerendered.
    afterNextRender(() => this.status.set(`script ran on ${document.location.pathname}`))
  }
}
