// The one stylesheet every page inlines. Small on purpose (a page carries it in its <head>, so there is no
// second request), and every colour pair in it has a contrast of at least 4.5:1 on its background.

/** Background and text colour of each daily letter's cell; the letter is always written in the cell too. */
export const LETTER_COLOURS = {
  o: { background: '#1b5e20', text: '#ffffff' },
  a: { background: '#0d47a1', text: '#ffffff' },
  p: { background: '#4a148c', text: '#ffffff' },
  d: { background: '#b71c1c', text: '#ffffff' },
  n: { background: '#e0e0e0', text: '#212121' },
} as const;

/** Colour of each shown state, for the status line, the badge and the widget (white text on each). */
export const STATE_COLOURS = {
  answering: '#1b5e20',
  sign_in: '#0d47a1',
  payment: '#4a148c',
  non_standard: '#7a4f00',
  down: '#b71c1c',
  unknown: '#555555',
} as const;

/** Colour of each risk level's label (white text on each). */
export const LEVEL_COLOURS = {
  'read-only': '#1b5e20',
  'changes-data': '#7a4f00',
  'high-risk': '#b71c1c',
} as const;

/** Colour of each score badge level (white text on each). */
export const BADGE_LEVEL_COLOURS = {
  good: '#1b5e20',
  neutral: '#555555',
  warning: '#7a4f00',
  critical: '#b71c1c',
} as const;

const BADGE_CSS = Object.entries(BADGE_LEVEL_COLOURS)
  .map(([level, colour]) => `.badge-${level}{background:${colour}}`)
  .join('');

export const PAGE_CSS = `
*{box-sizing:border-box}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
body{margin:0}
a{color:#0b4f9c}
a:focus,button:focus,input:focus,select:focus{outline:3px solid #f9a825;outline-offset:2px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:2}
header.site,footer.site{background:#f3f4f6;padding:.5rem 1rem}
header.site nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
header.site .brand{font-weight:700;color:#1a1a1a;text-decoration:none}
footer.site{margin-top:2rem;font-size:.875rem;color:#333}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.25rem;margin:1.75rem 0 .5rem;border-bottom:1px solid #ddd}h3{font-size:1.05rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e5e5e5;vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875rem}
pre{background:#f6f8fa;padding:.75rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.muted{color:#4a4a4a}.small{font-size:.875rem}
.pill{display:inline-block;padding:0 .45rem;border-radius:.25rem;color:#fff;font-size:.875rem;white-space:nowrap}
.pill.local{background:#4b5563}
.status,.grade-line{font-size:1.15rem;font-weight:600}
.banner{border:2px solid #b71c1c;background:#fdecea;padding:.75rem 1rem;margin:1rem 0}
.note{border-left:4px solid #7a4f00;background:#fff8e1;padding:.5rem .75rem;margin:.5rem 0}
.owner{border-left:4px solid #0d47a1;background:#eef4fc;padding:.5rem .75rem;margin:.5rem 0}
.strip{display:flex;flex-wrap:wrap;gap:2px;list-style:none;padding:0;margin:.5rem 0}
.strip li,.legend .cell{display:inline-block;width:1.5rem;height:1.75rem;line-height:1.75rem;text-align:center;font-weight:700;font-family:ui-monospace,monospace;border-radius:2px}
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.875rem}
.hours{display:grid;grid-template-columns:repeat(12,minmax(0,1fr));gap:2px;list-style:none;padding:0}
.hours li{text-align:center;font-size:.75rem;padding:2px 0;border-radius:2px}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));gap:.75rem;margin:.5rem 0}
.figures div{background:#f6f8fa;padding:.5rem .75rem;border-radius:4px}
.figures dt{font-size:.875rem;color:#333}.figures dd{margin:0;font-size:1.25rem;font-weight:600}
.figures dd.small{font-size:.875rem;font-weight:400}
.top{color:#1b5e20;font-weight:700}
form.search{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}
form.search label{display:flex;flex-direction:column;font-size:.875rem}
input,select,button{font:inherit;padding:.35rem .5rem}
button{background:#0b4f9c;color:#fff;border:0;border-radius:4px}
figure{margin:1rem 0}blockquote{margin:.5rem 0 .5rem 1rem}
svg{max-width:100%;height:auto}
.hash{word-break:break-all}
.badges{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.25rem}
${BADGE_CSS}
@media (max-width:40rem){main{padding:.5rem}h1{font-size:1.35rem}.hours{grid-template-columns:repeat(6,minmax(0,1fr))}}
`
  .trim()
  .replace(/\n/g, '');
