// One temporary root per test run. Every test, and every process a test starts (the CLI, the demo, Chromium),
// makes its temporary folders under the system's temp folder; pointing TMPDIR at a fresh root before the test
// files run, and removing that root when they are done, leaves nothing behind even when a test fails halfway
// or a child process is killed before it could clean up. Tests still remove their own folders as they go.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Vitest global setup: makes the run's temp root and returns the teardown that removes it. */
export default function setupTempRoot(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'mcp-atlas-app-tests-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
