// Finding and rendering the methodology (docs/methodology/, one markdown file per area) for the methodology
// pages. The folder lives at the root of the repository, outside the app's package, and the app runs both from
// source (tests, `tsx`) and from its bundled dist/cli.js; both sit a few folders below the repository root, so
// the folder is found by walking up from this module's own folder until `docs/methodology/README.md` appears.
// The build copies the folder next to dist/cli.js (tsup.config.ts), and that copy comes first, so an installed
// app, with no repository around it, serves the text it was built with.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked, type Tokens } from 'marked';

/** Where the methodology folder sits below the repository root. */
export const METHODOLOGY_DOC_RELATIVE_PATH = join('docs', 'methodology');

/** The name of the copy of the folder the build puts next to dist/cli.js. */
export const BUNDLED_METHODOLOGY_DOC = 'methodology';

/** The file of the folder that is the contents page, served at `/methodology`. */
export const METHODOLOGY_CONTENTS_FILE = 'README.md';

/**
 * The areas of the methodology, in the order of its contents page: each is a file `<area>.md` of the folder,
 * served at `/methodology/<area>`. A fixed list, so a URL can only ever name one of these files.
 */
export const METHODOLOGY_AREAS = Object.freeze([
  'checks',
  'risk',
  'findings',
  'reliability',
  'discovery',
  'local',
  'route-and-search',
  'ratings-and-incidents',
  'score',
  'history',
  'operations',
  'conformance',
  'changelog',
] as const);

/** One area of the methodology, named by its file. */
export type MethodologyArea = (typeof METHODOLOGY_AREAS)[number];

/** Whether `name` is one of the methodology's areas (a URL segment is checked with this before any file is read). */
export function isMethodologyArea(name: string): name is MethodologyArea {
  return (METHODOLOGY_AREAS as readonly string[]).includes(name);
}

/** The folder the build bundled next to this module, or null when running from source (no copy there). */
export function findBundledMethodologyDoc(folder: string = moduleFolder()): string | null {
  const candidate = join(folder, BUNDLED_METHODOLOGY_DOC);
  return existsSync(join(candidate, METHODOLOGY_CONTENTS_FILE)) ? candidate : null;
}

/** Folders walked up from the start folder before giving up (src/pages and dist are 3 and 2 below the root). */
export const METHODOLOGY_DOC_SEARCH_LEVELS = 6;

/** One page of the methodology, rendered. */
export interface MethodologyDoc {
  /** The file it was read from. */
  path: string;
  /** The version the page states on its "Methodology version: **x.y.z**" line, or null when it states none. */
  version: string | null;
  /** The text of the page's first `# ` heading, or null when it has none. */
  title: string | null;
  /** The page as HTML. */
  html: string;
}

/** The folder of this module: src/pages when run from source, dist when bundled. */
export function moduleFolder(): string {
  return dirname(fileURLToPath(import.meta.url));
}

/**
 * Walks up from `startFolder` (at most METHODOLOGY_DOC_SEARCH_LEVELS folders) and returns the first
 * `docs/methodology` folder found that holds its contents page, or null.
 */
export function findMethodologyDoc(startFolder: string = moduleFolder()): string | null {
  let folder = startFolder;
  for (let level = 0; level <= METHODOLOGY_DOC_SEARCH_LEVELS; level++) {
    const candidate = join(folder, METHODOLOGY_DOC_RELATIVE_PATH);
    if (existsSync(join(candidate, METHODOLOGY_CONTENTS_FILE))) return candidate;
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return null;
}

/** The version a methodology text states, or null. */
export function readStatedVersion(markdown: string): string | null {
  return /Methodology version: \*\*([^*]+)\*\*/.exec(markdown)?.[1] ?? null;
}

/** The text of a methodology text's first `# ` heading, or null. */
export function readTitle(markdown: string): string | null {
  return /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? null;
}

/** A heading's anchor: lower-case words joined by dashes, so sections can be linked to. */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The service's address for a link written between the methodology's files: `risk.md#x` is `/methodology/risk#x`
 * and `README.md` is `/methodology`, so the same markdown links work on GitHub and on the service's pages. Any
 * other link is left as written.
 */
export function pageLinkOf(href: string): string {
  const match = /^(?:\.\/)?([A-Za-z-]+)\.md(#.*)?$/.exec(href);
  if (match === null) return href;
  const [, name, anchor = ''] = match as unknown as [string, string, string | undefined];
  if (`${name}.md` === METHODOLOGY_CONTENTS_FILE) return `/methodology${anchor}`;
  return isMethodologyArea(name) ? `/methodology/${name}${anchor}` : href;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/**
 * The markdown renderer: GitHub-flavoured markdown, headings with anchors, links between the methodology's files
 * pointed at the service's pages, and raw HTML in the text shown as text rather than passed through (the text is
 * our own, but a page should not depend on that staying true).
 */
function createRenderer(): Marked {
  const marked = new Marked({ gfm: true });
  marked.use({
    walkTokens(token) {
      if (token.type === 'link') (token as Tokens.Link).href = pageLinkOf((token as Tokens.Link).href);
    },
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        return `<h${token.depth} id="${slugOf(token.text)}">${inner}</h${token.depth}>\n`;
      },
      html(token: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(token.text);
      },
    },
  });
  return marked;
}

/** Renders methodology markdown to HTML and reads its stated version. */
export function renderMethodology(markdown: string, path: string): MethodologyDoc {
  const html = createRenderer().parse(markdown, { async: false });
  return { path, version: readStatedVersion(markdown), title: readTitle(markdown), html };
}

/** Reads and renders the page at `path`. */
export async function loadMethodologyDoc(path: string): Promise<MethodologyDoc> {
  return renderMethodology(await readFile(path, 'utf8'), path);
}

/** A page of the methodology as a source gives it: the page, or the reason it cannot be shown. */
export type MethodologyRead = { ok: true; doc: MethodologyDoc } | { ok: false; reason: string };

/** The rendered pages, each read once and kept (the text changes only with a new release). */
export interface MethodologySource {
  /** The contents page (no area given) or one area's page, or null with the reason when it cannot be read. */
  read(area?: MethodologyArea): Promise<MethodologyRead>;
}

let defaultSource: MethodologySource | null = null;

/**
 * The process's one source for the folder found above this module, so every app mounted in the process shares
 * one read and one rendering of each page.
 */
export function defaultMethodologySource(): MethodologySource {
  defaultSource ??= createMethodologySource();
  return defaultSource;
}

/** A source reading the folder `folder`, or the folder found by walking up from this module when none is given. */
export function createMethodologySource(folder?: string): MethodologySource {
  const loaded = new Map<string, Promise<MethodologyRead>>();
  return {
    read(area) {
      const file = area === undefined ? METHODOLOGY_CONTENTS_FILE : `${area}.md`;
      let page = loaded.get(file);
      if (page === undefined) {
        page = (async () => {
          const found = folder ?? findBundledMethodologyDoc() ?? findMethodologyDoc();
          if (found === null)
            return {
              ok: false as const,
              reason: `no ${METHODOLOGY_DOC_RELATIVE_PATH} was found above ${moduleFolder()}`,
            };
          const path = join(found, file);
          try {
            return { ok: true as const, doc: await loadMethodologyDoc(path) };
          } catch (error) {
            // Not kept: a file that is missing now may be restored, and the next request should see it.
            loaded.delete(file);
            return {
              ok: false as const,
              reason: `${path} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
            };
          }
        })();
        loaded.set(file, page);
      }
      return page;
    },
  };
}
