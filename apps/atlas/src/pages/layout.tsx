// The frame of every HTML page: language, a phone-sized viewport, the inline stylesheet, a skip link, the
// site's navigation and the footer with the methodology version. Pages render on the server only: no script
// is sent, so every page reads the same with JavaScript off.
import { raw } from 'hono/html';
import type { Child, FC } from 'hono/jsx';
import { PAGE_CSS } from './styles.js';

/** What the frame needs besides the page's own content. */
export interface LayoutProps {
  /** The page's own title; the site name is appended. */
  title: string;
  /** One sentence for search engines and link previews. */
  description: string;
  methodologyVersion: string;
  appVersion: string;
  children?: Child;
}

/** The navigation links, in the order the header shows them. */
export const NAV_LINKS = [
  { href: '/', label: 'State' },
  { href: '/servers', label: 'Servers' },
  { href: '/reliable', label: 'Most reliable' },
  { href: '/leaderboard', label: 'Quality scores' },
  { href: '/search', label: 'Tool search' },
  { href: '/search-eval', label: 'Search quality' },
  { href: '/methodology', label: 'Methodology' },
] as const;

/** The whole document of a page: head, header, main content and footer. */
export const Layout: FC<LayoutProps> = (props) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${props.title} · mcp-atlas`}</title>
      <meta name="description" content={props.description} />
      {/* An empty icon: without it every browser asks for /favicon.ico, which the service does not serve. */}
      <link rel="icon" href="data:," />
      {/* Raw: the stylesheet is our own constant, and escaping would turn its quotes into entities CSS cannot read. */}
      <style>{raw(PAGE_CSS)}</style>
    </head>
    <body>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header class="site">
        <nav aria-label="Site">
          <ul>
            <li>
              <a class="brand" href="/">
                mcp-atlas
              </a>
            </li>
            {NAV_LINKS.slice(1).map((link) => (
              <li>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main">{props.children}</main>
      <footer class="site">
        <p>
          mcp-atlas {props.appVersion}, an open observatory of remote MCP servers. Figures follow methodology version{' '}
          <a href="/methodology">{props.methodologyVersion}</a>. Risk levels are a heuristic read from what each tool
          says about itself, not a security audit.
        </p>
      </footer>
    </body>
  </html>
);
