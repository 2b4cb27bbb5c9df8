// `check` prints server text (name, version, tool names, messages) on a terminal. A server that puts control
// characters in it must not be able to set the terminal's title, erase a line, backspace over a word or print a
// fake line of the report: text with a control character prints JSON-quoted and escaped, as `review list` quotes
// a tool's name, and plain text prints exactly as before.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { quoteControlText } from '../src/check/terminal-text.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';

const controlServer = fileURLToPath(new URL('./fixtures/check-stdio-control-text.mjs', import.meta.url));
const folders: string[] = [];

/** Any character a terminal acts on, but the line break and the tab. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function workDir(): string {
  const dir = makeWorkDir();
  folders.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('quoteControlText', () => {
  it('leaves plain text as it is, quotes and escapes text with ESC, BEL, NUL, backspace, DEL or a C1 control', () => {
    expect(quoteControlText('memory')).toBe('memory');
    expect(quoteControlText('tab\tand "quotes"')).toBe('tab\tand "quotes"');
    expect(quoteControlText('x\u001b]0;t\u0007')).toBe('"x\\u001b]0;t\\u0007"');
    expect(quoteControlText('a\u0000b\u0008c\u007fd\u009be\nf')).toBe('"a\\u0000b\\bc\\u007fd\\u009be\\nf"');
    expect(quoteControlText('txt.exe\u202efdp.')).toBe('"txt.exe\\u202efdp."');
  });
});

describe('check against a stdio server whose name, version and tool names hold control characters', () => {
  it('prints them escaped in the text report, so no control character reaches the terminal', async () => {
    const run = await runCheckIn(workDir(), ['--', process.execPath, controlServer]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    expect(run.stdout).toContain('server "quiet\\u001b]0;pwned\\u0007" "1.0\\u001b[2K\\u0000\\npassed"');
    expect(run.stdout).toContain('"get\\b\\b\\bdel_item"');
    expect(run.stdout).toContain('"list\\u001b[2K\\rpassed"');
    expect(run.stdout).toContain('"read\\u009b31mred\\u0000"');
    expect(run.stdout).toContain('"open_\\u202egnp.exe"');
    // The version's line break makes no line of its own: "passed" starts no line but the verdict's.
    expect(run.stdout.split('\n').filter((line) => line.startsWith('passed'))).toEqual([
      'passed (gates: not-answering)',
    ]);
  });

  it('keeps the exact text in --json, with DEL and C1 controls escaped as JSON escapes too', async () => {
    const run = await runCheckIn(workDir(), ['--json', '--', process.execPath, controlServer]);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    const report = CheckReportSchema.parse(JSON.parse(run.stdout));
    expect(report.serverInfo).toEqual({ name: 'quiet\u001b]0;pwned\u0007', version: '1.0\u001b[2K\u0000\npassed' });
    expect(report.tools.map((tool) => tool.name)).toEqual([
      'get\u0008\u0008\u0008del_item',
      'list\u001b[2K\rpassed',
      'read\u009b31mred\u0000',
      'open_\u202egnp.exe',
    ]);
  });
});
