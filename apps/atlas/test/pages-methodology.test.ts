// The methodology page renders docs/methodology.md with its version. The doc sits at the repository root,
// outside the app's package, so the tests prove it is found both from the source (this process) and from the
// bundled dist/cli.js (a child process serving the built app), and that a missing doc is a clear 503.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createChangeReader } from '../src/http/server-changes.js';
import { APP_VERSION, METHODOLOGY_VERSION } from '../src/methodology.js';
import { createMethodologySource, findMethodologyDoc, renderMethodology } from '../src/pages/methodology-doc.js';
import { mountPages } from '../src/pages/routes.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { buildView } from '../src/view/build-view.js';

const APP_FOLDER = join(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_DOC = join(APP_FOLDER, '..', '..', 'docs', 'methodology.md');
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
    methodologyVersion: METHODOLOGY_VERSION,
    appVersion: APP_VERSION,
    origin: 'http://localhost',
    ...(methodologyPath !== undefined ? { methodology: createMethodologySource(methodologyPath) } : {}),
  });
  return app;
}

describe('finding the methodology doc', () => {
  it('finds the repository’s doc from the source folder and from the dist folder', () => {
    expect(existsSync(REPO_DOC)).toBe(true);
    expect(findMethodologyDoc(join(APP_FOLDER, 'src', 'pages'))).toBe(REPO_DOC);
    expect(findMethodologyDoc(join(APP_FOLDER, 'dist'))).toBe(REPO_DOC);
    expect(findMethodologyDoc()).toBe(REPO_DOC);
  });

  it('gives up above the search depth rather than reading a stray file', () => {
    expect(findMethodologyDoc(tmpdir())).toBeNull();
  });
});

describe('the methodology page', () => {
  it('renders the doc with its version, served from source', async () => {
    const response = await (await pagesApp()).request('/methodology');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`data-methodology-version="${METHODOLOGY_VERSION}"`);
    expect(html).toContain('<h1 id="mcp-atlas-methodology">mcp-atlas methodology</h1>');
    expect(html).toContain(`Methodology version: <strong>${METHODOLOGY_VERSION}</strong>`);
    expect(html).toContain('<h2 id="tool-risk-levels">Tool risk levels</h2>');
    expect(html).toContain('<table>');
  });

  it('renders the doc with its version, served by the built dist/cli.js', async () => {
    expect(existsSync(DIST_CLI), 'build the app first (turbo runs build before test)').toBe(true);
    const base = await serveBuiltApp();
    const response = await fetch(`${base}/methodology`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`data-methodology-version="${METHODOLOGY_VERSION}"`);
    expect(html).toContain('<h2 id="tool-risk-levels">Tool risk levels</h2>');
    // The built app serves the other pages too, over its empty data folder.
    const state = await fetch(`${base}/`);
    expect(state.status).toBe(200);
    expect(await state.text()).toContain('No day has been checked yet');
  }, 30_000);

  it('answers 503 with the reason when the doc cannot be read', async () => {
    const missing = join(tmpdir(), 'no-such-folder', 'methodology.md');
    const response = await (await pagesApp(missing)).request('/methodology');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain(`${missing} could not be read (ENOENT)`);
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

  it('says when the doc states another version than the service applies', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'atlas-doc-')), 'methodology.md');
    await writeFile(path, '# Methodology\n\nMethodology version: **0.0.1**\n');
    const html = await (await (await pagesApp(path)).request('/methodology')).text();
    expect(html).toContain(
      `This service applies methodology version <strong>${METHODOLOGY_VERSION}</strong>. The text below states version 0.0.1.`,
    );
  });
});
