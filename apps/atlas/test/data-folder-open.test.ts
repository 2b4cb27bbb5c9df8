// What `scan`, `seal` and `serve` do to a data folder when they start: temp files a crash left behind
// (older than STALE_TEMP_FILE_AGE_MS) go, a younger one (maybe a running service's write) stays; and the
// signing key is made on disk with owner-only modes, or tightened with a warning when it was left open.
import { chmod, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readServeSettings, startServe } from '../src/commands/serve.js';
import { openDataFolder, removeTempFilesOlderThan, STALE_TEMP_FILE_AGE_MS } from '../src/commands/shared.js';
import { EXIT_OK, runCommand } from '../src/commands.js';

const folders: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function newFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'atlas-open-'));
  folders.push(dir);
  return dir;
}

/** Writes a temp file last modified `ageMs` before `now`. */
async function tempFile(dir: string, name: string, now: Date, ageMs: number): Promise<string> {
  await mkdir(join(dir, 'state'), { recursive: true });
  const path = join(dir, 'state', name);
  await writeFile(path, 'partial');
  const at = new Date(now.getTime() - ageMs);
  await utimes(path, at, at);
  return path;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe('temp files at start', () => {
  it('removes those at least 10 minutes old and keeps younger ones', async () => {
    expect(STALE_TEMP_FILE_AGE_MS).toBe(600_000);
    const dir = await newFolder();
    const now = new Date('2026-12-02T12:00:00Z');
    const old = await tempFile(dir, 'a.json.1.x.tmp', now, STALE_TEMP_FILE_AGE_MS + 1_000);
    const atLimit = await tempFile(dir, 'b.json.1.x.tmp', now, STALE_TEMP_FILE_AGE_MS);
    const young = await tempFile(dir, 'c.json.1.x.tmp', now, STALE_TEMP_FILE_AGE_MS - 1_000);
    const fresh = await tempFile(dir, 'd.json.1.x.tmp', now, 0);
    const kept = join(dir, 'state', 'servers.json');
    await writeFile(kept, '{"servers":[]}');
    await utimes(kept, new Date(0), new Date(0));
    expect(await removeTempFilesOlderThan(dir, now)).toBe(2);
    expect([
      await exists(old),
      await exists(atLimit),
      await exists(young),
      await exists(fresh),
      await exists(kept),
    ]).toEqual([false, false, true, true, true]);
  });

  it('openDataFolder leaves a write in progress alone, and `mcp-atlas seal` next to a service does too', async () => {
    const dir = await newFolder();
    const inFlight = await tempFile(dir, 'hourly.json.123.abc.tmp', new Date(), 0);
    const leftover = await tempFile(dir, 'origins.json.9.z.tmp', new Date(), 3_600_000);
    await openDataFolder({ data: dir });
    expect(await readFile(inFlight, 'utf8')).toBe('partial');
    expect(await exists(leftover)).toBe(false);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await runCommand(['seal', '--data', dir], pino({ level: 'silent' }))).toBe(EXIT_OK);
    expect(await readFile(inFlight, 'utf8')).toBe('partial');
  });
});

describe('the signing key when a command opens the folder', () => {
  it('`mcp-atlas seal` makes a new key 0600 in a 0700 keys/ folder', async () => {
    const dir = await newFolder();
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await runCommand(['seal', '--data', dir], pino({ level: 'silent' }))).toBe(EXIT_OK);
    expect((await stat(join(dir, 'keys'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'keys', 'signing-key.json'))).mode & 0o777).toBe(0o600);
  });

  it('`mcp-atlas seal` and `mcp-atlas scan` tighten a key file left open to others, with a warning in the log', async () => {
    for (const command of [['seal'], ['scan', '--day', '2026-12-01']]) {
      const dir = await newFolder();
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      await runCommand(['seal', '--data', dir], pino({ level: 'silent' }));
      const key = join(dir, 'keys', 'signing-key.json');
      await chmod(key, 0o644);
      const lines: string[] = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      expect(await runCommand([...command, '--data', dir], log), command.join(' ')).toBe(EXIT_OK);
      vi.restoreAllMocks();
      expect((await stat(key)).mode & 0o777, command.join(' ')).toBe(0o600);
      expect(
        lines
          .map((line) => JSON.parse(line) as { level: number; msg: string })
          .filter((l) => l.level === 40 && l.msg.includes('tightened to 0600')),
      ).toHaveLength(1);
    }
  });

  it('`mcp-atlas serve` makes its key 0600 in a 0700 keys/ folder and keeps a younger temp file', async () => {
    const dir = await newFolder();
    const inFlight = await tempFile(dir, 'hourly.json.7.q.tmp', new Date(), 1_000);
    const settings = readServeSettings(['--data', dir, '--port', '0', '--no-schedule'], {});
    const started = await startServe(settings, pino({ level: 'silent' }), { handleSignals: false });
    try {
      expect((await stat(join(dir, 'keys'))).mode & 0o777).toBe(0o700);
      expect((await stat(join(dir, 'keys', 'signing-key.json'))).mode & 0o777).toBe(0o600);
      expect(await readFile(inFlight, 'utf8')).toBe('partial');
    } finally {
      await started.running.close();
    }
  });
});
