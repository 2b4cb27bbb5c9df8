// The embeddable widget (`/widget/:id`): a page small enough for an iframe on someone else's site, with the
// server's status, its uptime with the label it must carry, and its recent daily letters. Its own minimal
// document (no site navigation), and no script.
import { raw } from 'hono/html';
import type { FC } from 'hono/jsx';
import { daysOfLetters } from '../data/days.js';
import type { ServerView } from '../view/build-view.js';
import { describeUptimeShort } from './badge.js';
import { describeLetter, StatePill } from './parts.js';
import { LETTER_COLOURS } from './styles.js';

const WIDGET_CSS = `
*{box-sizing:border-box}
html{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
body{margin:0}main{padding:8px 10px}
a{color:#0b4f9c}
h1{font-size:15px;margin:0 0 4px}
p{margin:4px 0}
.pill{display:inline-block;padding:0 6px;border-radius:3px;color:#fff;font-size:13px}
.mini{display:flex;flex-wrap:wrap;gap:1px;list-style:none;padding:0;margin:6px 0}
.mini li{width:10px;height:14px;border-radius:1px}
.small{font-size:12px;color:#4a4a4a}
`
  .trim()
  .replace(/\n/g, '');

/** The widget's whole document for one server. */
export const WidgetPage: FC<{ server: ServerView; methodologyVersion: string }> = ({ server, methodologyVersion }) => {
  const name = server.title ?? server.id;
  const days = daysOfLetters(server.letters, server.lettersThrough);
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${name} · mcp-atlas`}</title>
        <link rel="icon" href="data:," />
        <style>{raw(WIDGET_CSS)}</style>
      </head>
      <body>
        <main>
          <h1>
            <a href={`/servers/${server.id}`} target="_blank" rel="noopener">
              {name}
            </a>
          </h1>
          <p data-status={server.shown.state ?? 'none'}>
            <StatePill state={server.shown.state} />
          </p>
          <p data-uptime>{describeUptimeShort(server.uptime)}</p>
          {server.letters.length > 0 ? (
            <ol class="mini" aria-label="Daily letters, oldest first">
              {Array.from(server.letters).map((letter, i) => {
                const known = letter in LETTER_COLOURS ? (letter as keyof typeof LETTER_COLOURS) : 'n';
                const words = `${days[i] ?? ''}: ${letter}, ${describeLetter(known)}`;
                return (
                  <li style={`background:${LETTER_COLOURS[known].background}`} title={words} aria-label={words}></li>
                );
              })}
            </ol>
          ) : null}
          <p class="small">Checked by mcp-atlas, methodology {methodologyVersion}.</p>
        </main>
      </body>
    </html>
  );
};
