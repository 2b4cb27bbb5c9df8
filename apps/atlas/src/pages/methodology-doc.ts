// Finding and rendering docs/methodology.md for the methodology page. The doc lives at the root of the
// repository, outside the app's package, and the app runs both from source (tests, `tsx`) and from its
// bundled dist/cli.js; both sit a few folders below the repository root, so the doc is found by walking
// up from this module's own folder until `docs/methodology.md` appears. The build copies the doc next to
// dist/cli.js (tsup.config.ts), and that copy comes first, so an installed app, with no repository around it,
// serves the doc it was built with.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked, type Tokens } from 'marked';

/** Where the doc sits below the repository root. */
export const METHODOLOGY_DOC_RELATIVE_PATH = join('docs', 'methodology.md');

/** The name of the copy the build puts next to dist/cli.js. */
export const BUNDLED_METHODOLOGY_DOC = 'methodology.md';

/** The doc the build bundled next to this module, or null when running from source (no copy there). */
export function findBundledMethodologyDoc(folder: string = moduleFolder()): string | null {
  const candidate = join(folder, BUNDLED_METHODOLOGY_DOC);
  return existsSync(candidate) ? candidate : null;
}

/** Folders walked up from the start folder before giving up (src/pages and dist are 3 and 2 below the root). */
export const METHODOLOGY_DOC_SEARCH_LEVELS = 6;

/** The doc, rendered. */
export interface MethodologyDoc {
  /** The file it was read from. */
  path: string;
  /** The version the doc states on its "Methodology version: **x.y.z**" line, or null when it states none. */
  version: string | null;
  /** The doc as HTML. */
  html: string;
}

/** The folder of this module: src/pages when run from source, dist when bundled. */
export function moduleFolder(): string {
  return dirname(fileURLToPath(import.meta.url));
}

/**
 * Walks up from `startFolder` (at most METHODOLOGY_DOC_SEARCH_LEVELS folders) and returns the first
 * `docs/methodology.md` found, or null.
 */
export function findMethodologyDoc(startFolder: string = moduleFolder()): string | null {
  let folder = startFolder;
  for (let level = 0; level <= METHODOLOGY_DOC_SEARCH_LEVELS; level++) {
    const candidate = join(folder, METHODOLOGY_DOC_RELATIVE_PATH);
    if (existsSync(candidate)) return candidate;
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

/** A heading's anchor: lower-case words joined by dashes, so sections can be linked to. */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/**
 * The markdown renderer: GitHub-flavoured markdown, headings with anchors, and raw HTML in the text shown as
 * text rather than passed through (the doc is our own, but a page should not depend on that staying true).
 */
function createRenderer(): Marked {
  const marked = new Marked({ gfm: true });
  marked.use({
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
  return { path, version: readStatedVersion(markdown), html };
}

/** Reads and renders the doc at `path`. */
export async function loadMethodologyDoc(path: string): Promise<MethodologyDoc> {
  return renderMethodology(await readFile(path, 'utf8'), path);
}

/** The rendered doc for the page, read once and kept (the doc changes only with a new release). */
export interface MethodologySource {
  /** The doc, or null with the reason when it cannot be found or read. */
  read(): Promise<{ ok: true; doc: MethodologyDoc } | { ok: false; reason: string }>;
}

let defaultSource: MethodologySource | null = null;

/**
 * The process's one source for the doc found above this module, so every app mounted in the process shares
 * one read and one rendering of it.
 */
export function defaultMethodologySource(): MethodologySource {
  defaultSource ??= createMethodologySource();
  return defaultSource;
}

/** A source reading `path`, or the doc found by walking up from this module when no path is given. */
export function createMethodologySource(path?: string): MethodologySource {
  let loaded: Promise<{ ok: true; doc: MethodologyDoc } | { ok: false; reason: string }> | null = null;
  return {
    read() {
      loaded ??= (async () => {
        const found = path ?? findBundledMethodologyDoc() ?? findMethodologyDoc();
        if (found === null)
          return {
            ok: false as const,
            reason: `no ${METHODOLOGY_DOC_RELATIVE_PATH} was found above ${moduleFolder()}`,
          };
        try {
          return { ok: true as const, doc: await loadMethodologyDoc(found) };
        } catch (error) {
          // Not kept: a file that is missing now may be restored, and the next request should see it.
          loaded = null;
          return {
            ok: false as const,
            reason: `${found} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
          };
        }
      })();
      return loaded;
    },
  };
}
