// The server page's embed section: the badge as it looks, and the snippets an owner copies into a README or
// a web page (Markdown badge, HTML badge, and the widget in an iframe). Plain text in <pre> blocks, so they
// can be selected and copied without any script.
import type { FC } from 'hono/jsx';
import type { ServerView } from '../view/build-view.js';

/** Width and height of the widget's frame, in CSS pixels, as the iframe snippet sets them. */
export const WIDGET_FRAME = { width: 340, height: 150 } as const;

/** The snippets for one server on the host at `base`. */
export function embedSnippetsOf(
  serverId: string,
  name: string,
  base: string,
): { markdown: string; html: string; iframe: string } {
  const page = `${base}/servers/${serverId}`;
  const badge = `${base}/badge/${serverId}.svg`;
  const alt = `mcp-atlas status of ${name}`;
  const attribute = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const markdownAlt = alt.replace(/[\\[\]]/g, (c) => `\\${c}`);
  return {
    markdown: `[![${markdownAlt}](${badge})](${page})`,
    html: `<a href="${attribute(page)}"><img src="${attribute(badge)}" alt="${attribute(alt)}"></a>`,
    iframe: `<iframe src="${attribute(`${base}/widget/${serverId}`)}" title="${attribute(alt)}" width="${WIDGET_FRAME.width}" height="${WIDGET_FRAME.height}" style="border:0" loading="lazy"></iframe>`,
  };
}

/** The badge preview and the three snippets. */
export const EmbedSnippets: FC<{ server: ServerView; base: string }> = ({ server, base }) => {
  const name = server.title ?? server.id;
  const snippets = embedSnippetsOf(server.id, name, base);
  return (
    <section aria-labelledby="embed-heading">
      <h2 id="embed-heading">Badge and widget</h2>
      <p>
        <img src={`/badge/${server.id}.svg`} alt={`mcp-atlas badge of ${name}: status and uptime`} />
      </p>
      <h3>Markdown</h3>
      <pre>
        <code data-snippet="markdown">{snippets.markdown}</code>
      </pre>
      <h3>HTML</h3>
      <pre>
        <code data-snippet="html">{snippets.html}</code>
      </pre>
      <h3>Widget</h3>
      <p class="small">
        A small page with the status, uptime and recent letters, made to sit in a frame:{' '}
        <a href={`/widget/${server.id}`}>preview it</a>.
      </p>
      <pre>
        <code data-snippet="iframe">{snippets.iframe}</code>
      </pre>
    </section>
  );
};
