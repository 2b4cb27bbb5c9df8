// The findings part of a server page says "No findings" only when a tool list was read and had none; when the
// newest check saw no tool list (down, sign-in), it says so instead, since no finding was looked for.
import { describe, expect, it } from 'vitest';
import { appOver, getPage, writeHandObservatory } from './pages-fixtures.js';

const DAY = '2026-11-29';
const NOW = new Date('2026-11-30T08:00:00Z');
const TOOLS = [{ name: 'list_items', description: 'Lists items.', annotations: { readOnlyHint: true } }];

describe('the findings of a server page', () => {
  it('say no tool list was read for a server down or asking for sign-in, and "No findings." for a clean list', async () => {
    const storage = await writeHandObservatory(DAY, [
      { id: 'clean', letters: 'o'.repeat(20), tools: TOOLS },
      { id: 'down', letters: `${'o'.repeat(19)}d`, tools: TOOLS },
      { id: 'locked', letters: 'a'.repeat(20) },
    ]);
    const { app } = await appOver(storage, NOW);
    const clean = await getPage(app, '/servers/clean');
    expect(clean.text).toContain('<p>No findings.</p>');
    for (const id of ['down', 'locked']) {
      const page = await getPage(app, `/servers/${id}`);
      expect(page.text, id).toContain('No findings: the newest check saw no tool list to read.');
      expect(page.text, id).not.toContain('<p>No findings.</p>');
    }
  });
});
