/** The report page's CSS, inlined: system fonts only, light and dark. */
export const HTML_REPORT_STYLE = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --line: #d9dee7; --bg: #fff; --card: #f4f6fa; --accent: #2f6fde; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #9aa3b5; --line: #343b48; --bg: #14171d; --card: #1d222b; --accent: #7aa7ff; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 20px 24px 40px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 20px; margin: 0; word-break: break-all; }
.meta { color: var(--muted); margin: 2px 0 16px; }
#totals { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 10px; margin-bottom: 16px; }
.total { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.total .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.total .bytes { font-size: 20px; font-weight: 600; font-variant-numeric: tabular-nums; }
.total .saved { color: var(--muted); font-variant-numeric: tabular-nums; }
#formats { display: flex; gap: 6px; margin-bottom: 10px; align-items: center; }
#formats span { color: var(--muted); margin-right: 4px; }
#formats button { font: inherit; padding: 4px 12px; border: 1px solid var(--line); border-radius: 999px; background: var(--card); color: var(--fg); cursor: pointer; }
#formats button[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
#treemap { position: relative; height: 460px; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; background: var(--card); margin-bottom: 20px; }
#treemap .dir { position: absolute; border: 1px solid rgba(0,0,0,.25); background: rgba(127,127,127,.08); overflow: hidden; }
#treemap .dir > .name { position: absolute; left: 3px; top: 0; right: 3px; font-size: 11px; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#treemap .cell { position: absolute; border: 1px solid rgba(0,0,0,.35); overflow: hidden; color: #111; font-size: 11px; padding: 2px 3px; line-height: 1.25; }
#treemap .cell:hover { outline: 2px solid var(--fg); z-index: 1; }
#treemap .cell .name { display: block; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-weight: 600; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 5px 8px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; white-space: normal; word-break: break-all; }
th { position: sticky; top: 0; background: var(--bg); cursor: pointer; user-select: none; }
th[aria-sort="ascending"]::after { content: " ▲"; }
th[aria-sort="descending"]::after { content: " ▼"; }
td.none { color: var(--muted); }
td.current, th.current { background: rgba(47,111,222,.10); }
`
