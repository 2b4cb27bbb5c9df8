// The methodology pages render docs/methodology/ (a contents page and one file per area) with the version. The
// folder sits at the repository root, outside the app's package, so the tests prove it is found both from the
// source (this process) and from the bundled dist/cli.js (a child process serving the built app), that every
// area has its own URL under the page budget, and that a missing text is a clear 503.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createChangeReader } from '../src/http/server-changes.js';
import { APP_VERSION, METHODOLOGY_VERSION } from '../src/methodology.js';
import {
  createMethodologySource,
  findMethodologyDoc,
  METHODOLOGY_AREAS,
  pageLinkOf,
  renderMethodology,
} from '../src/pages/methodology-doc.js';
import { mountPages, pageSightingOf } from '../src/pages/routes.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { buildView } from '../src/view/build-view.js';
import { PAGE_BUDGET_BYTES } from './pages-fixtures.js';

const APP_FOLDER = join(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_DOC = join(APP_FOLDER, '..', '..', 'docs', 'methodology');
const DIST_CLI = join(APP_FOLDER, 'dist', 'cli.js');

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});

/** Starts the built CLI's `serve` on a free loopback port and resolves with its address. */
async function serveBuiltApp(): Promise<string> {
  const data = await mkdtemp(join(tmpdir(), 'atlas-dist-'));
  const child = spawn(process.execPath, [DIST_CLI, 'serve', '--data', data, '--port', '0', '--no-schedule'], {
    // Run from elsewhere, so nothing depends on the working folder.
    cwd: tmpdir(),
    env: { ...process.env, MCP_ATLAS_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving at (http:\/\/\S+)/.exec(out);
      if (match !== null) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the built CLI exited with ${code} before serving: ${out}`)));
  });
}

async function pagesApp(methodologyPath?: string): Promise<Hono> {
  const storage = createMemoryStorage();
  const view = await buildView(storage);
  const app = new Hono();
  mountPages(app, {
    getView: () => view,
    changes: createChangeReader(storage),
    daySeries: async () => undefined,
    methodologyVersion: METHODOLOGY_VERSION,
    appVersion: APP_VERSION,
    origin: 'http://localhost',
    ...(methodologyPath !== undefined ? { methodology: createMethodologySource(methodologyPath) } : {}),
  });
  return app;
}

describe('finding the methodology folder', () => {
  it('finds the repository’s folder from the source folder and from the dist folder', () => {
    expect(existsSync(join(REPO_DOC, 'README.md'))).toBe(true);
    expect(findMethodologyDoc(join(APP_FOLDER, 'src', 'pages'))).toBe(REPO_DOC);
    expect(findMethodologyDoc(join(APP_FOLDER, 'dist'))).toBe(REPO_DOC);
    expect(findMethodologyDoc()).toBe(REPO_DOC);
  });

  it('gives up above the search depth rather than reading a stray file', () => {
    expect(findMethodologyDoc(tmpdir())).toBeNull();
  });
});

describe('the methodology pages', () => {
  it('every area of the contents is a file of the folder, and every file is an area or the contents', () => {
    const files = readdirSync(REPO_DOC).filter((file) => file.endsWith('.md'));
    expect(files.sort()).toEqual(['README.md', ...METHODOLOGY_AREAS.map((area) => `${area}.md`)].sort());
  });

  it('renders the contents page with its version and a link to every area, served from source', async () => {
    const response = await (await pagesApp()).request('/methodology');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`data-methodology-version="${METHODOLOGY_VERSION}"`);
    expect(html).toContain('<h1 id="mcp-atlas-methodology">mcp-atlas methodology</h1>');
    expect(html).toContain(`Methodology version: <strong>${METHODOLOGY_VERSION}</strong>`);
    expect(html).toContain('<table>');
    for (const area of METHODOLOGY_AREAS) expect(html, area).toContain(`<a href="/methodology/${area}">`);
    expect(Buffer.byteLength(html)).toBeLessThan(PAGE_BUDGET_BYTES);
  });

  it('serves each area at its own URL, under the page budget, with a link back to the contents', async () => {
    const app = await pagesApp();
    for (const area of METHODOLOGY_AREAS) {
      const response = await app.request(`/methodology/${area}`);
      expect(response.status, area).toBe(200);
      const html = await response.text();
      expect(Buffer.byteLength(html), area).toBeLessThan(PAGE_BUDGET_BYTES);
      expect(html, area).toContain(`data-methodology-version="${METHODOLOGY_VERSION}"`);
      expect(html, area).toContain('<a href="/methodology">All areas of the methodology</a>');
      expect(html.match(/<h1 /g), area).toHaveLength(1);
      // Links between the files point at the service's pages, never at a markdown file.
      expect(html, area).not.toMatch(/href="[^"]*\.md[#"]/);
    }
    const risk = await (await app.request('/methodology/risk')).text();
    expect(risk).toContain('<h1 id="tool-risk-levels">Tool risk levels</h1>');
    expect(risk).toContain(`<title>Tool risk levels: methodology ${METHODOLOGY_VERSION}`);
    const operations = await (await app.request('/methodology/operations')).text();
    expect(operations).toContain('href="/methodology/route-and-search#route-score-routetask-scoreroute"');
  });

  it('answers 404 for an area the methodology does not have, without reading a file', async () => {
    const app = await pagesApp();
    for (const path of [
      '/methodology/nothing',
      '/methodology/README',
      '/methodology/..%2Fbot',
      '/methodology/risk.md',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
    }
  });

  it('counts a view of an area under its own key, and nothing for a path that names no area', () => {
    expect(pageSightingOf('/methodology')).toEqual({ kind: 'view', key: 'methodology' });
    expect(pageSightingOf('/methodology/risk')).toEqual({ kind: 'view', key: 'methodology:risk' });
    expect(pageSightingOf('/methodology/nothing')).toBeNull();
  });

  it('points links between the files at the service’s pages and leaves other links alone', () => {
    expect(pageLinkOf('risk.md')).toBe('/methodology/risk');
    expect(pageLinkOf('route-and-search.md#route-score-routetask-scoreroute')).toBe(
      '/methodology/route-and-search#route-score-routetask-scoreroute',
    );
    expect(pageLinkOf('README.md')).toBe('/methodology');
    expect(pageLinkOf('./changelog.md#x')).toBe('/methodology/changelog#x');
    expect(pageLinkOf('bot.md')).toBe('bot.md');
    expect(pageLinkOf('https://example.org/risk.md')).toBe('https://example.org/risk.md');
  });

  it('renders the contents and an area with the version, served by the built dist/cli.js', async () => {
    expect(existsSync(DIST_CLI), 'build the app first (turbo runs build before test)').toBe(true);
    const base = await serveBuiltApp();
    const response = await fetch(`${base}/methodology`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`data-methodology-version="${METHODOLOGY_VERSION}"`);
    expect(html).toContain('<a href="/methodology/risk">Tool risk levels</a>');
    const area = await fetch(`${base}/methodology/risk`);
    expect(area.status).toBe(200);
    expect(await area.text()).toContain('<h1 id="tool-risk-levels">Tool risk levels</h1>');
    // The built app serves the other pages too, over its empty data folder.
    const state = await fetch(`${base}/`);
    expect(state.status).toBe(200);
    expect(await state.text()).toContain('No day has been checked yet');
  });

  it('answers 503 with the reason when a page cannot be read', async () => {
    const missing = join(tmpdir(), 'no-such-folder', 'methodology');
    const app = await pagesApp(missing);
    const response = await app.request('/methodology');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain(`${join(missing, 'README.md')} could not be read (ENOENT)`);
    const area = await app.request('/methodology/score');
    expect(area.status).toBe(503);
    expect(await area.text()).toContain(`${join(missing, 'score.md')} could not be read (ENOENT)`);
  });
});

describe('rendering methodology markdown', () => {
  it('shows raw HTML in the text as text, and anchors headings', () => {
    const doc = renderMethodology(
      '# Risk & rules\n\nMethodology version: **9.9.9**\n\n<script>alert(1)</script>\n\nA <b>word</b>.\n',
      'x.md',
    );
    expect(doc.version).toBe('9.9.9');
    expect(doc.html).toContain('<h1 id="risk-rules">Risk &amp; rules</h1>');
    expect(doc.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(doc.html).toContain('A &lt;b&gt;word&lt;/b&gt;.');
    expect(doc.html).not.toContain('<script>');
  });

  it('says when the text states another version than the service applies', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'atlas-doc-'));
    await writeFile(join(folder, 'README.md'), '# Methodology\n\nMethodology version: **0.0.1**\n');
    const html = await (await (await pagesApp(folder)).request('/methodology')).text();
    expect(html).toContain(
      `This service applies methodology version <strong>${METHODOLOGY_VERSION}</strong>. The text below states version 0.0.1.`,
    );
  });
});
