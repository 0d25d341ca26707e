import { defineHandler } from 'nitro/h3'

// A second page, rendered by a Nitro route and prerendered into .output/public/about/index.html.
const topics = ['routes/ handlers', 'prerendered HTML', 'public/ files', 'the Vite client build', 'one output folder']

export default defineHandler(
  () =>
    new Response(
      `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width,initial-scale=1" />
    <title>About: preencode Nitro fixture</title>
  </head>
  <body>
    <nav><a href="/">Home</a> · <a href="/about">About</a></nav>
    <main>
      <h1>About</h1>
      <p>This page comes from a Nitro route (routes/about.ts) and is prerendered at build time.
      Nitro writes it into .output/public after Vite's client build, together with the files of public/.</p>
      <ul>${topics.map((topic) => `<li>Nitro puts ${topic} into the deployed folder; every compressible one should have gzip, brotli and zstd variants.</li>`).join('')}</ul>
    </main>
  </body>
</html>`,
      { headers: { 'content-type': 'text/html; charset=utf-8' } },
    ),
)
