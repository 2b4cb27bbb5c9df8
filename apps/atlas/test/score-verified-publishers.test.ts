// The operator's verified-publisher list: read from a comma-separated setting or a file (one name a line), and
// given to the daily score by the schedule. A real SDK server on loopback is checked and scored on a day with the
// built-in list (its organisation is not on it) and with an operator's list that names it.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServeSettings, startServe } from '../src/commands/serve.js';
import { UsageError } from '../src/commands/shared.js';
import { createLogger } from '../src/log.js';
import { readDayScores } from '../src/score/day-scores.js';
import { writeRegistryScoreFacts } from '../src/score/registry-facts.js';
import {
  parseVerifiedPublishers,
  readVerifiedPublishers,
  VerifiedPublishersError,
} from '../src/score/verified-publishers.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import { type RunningServer, startSdkServer } from './fixtures/check-sdk-http.js';
import { loopbackScheduler } from './fixtures/loopback-scheduler.js';
import { manualClock } from './fixtures/manual-clock.js';
import { weatherFacts } from './fixtures/score-files.js';

const DAY = '2026-11-20';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'atlas-verified-publishers-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('parseVerifiedPublishers', () => {
  it('takes names in lower case without their @, skipping blanks, comments and repeats', () => {
    const names = parseVerifiedPublishers(
      ['Stripe', ' @Acme-Labs ', '# our partners', '', 'stripe', 'io.x # x'],
      (i) => `${i}`,
    );
    expect(names).toEqual(['stripe', 'acme-labs', 'io.x']);
  });

  it('refuses a piece that is not a name, saying which, and a list that names none', () => {
    expect(() => parseVerifiedPublishers(['good', 'has space'], (i) => `line ${i + 1}`)).toThrow(
      /^line 2: "has space" is not a GitHub organisation or npm scope/,
    );
    expect(() => parseVerifiedPublishers(['-dash'], () => 'x')).toThrow(VerifiedPublishersError);
    expect(() => parseVerifiedPublishers(['# only a comment', ' '], () => 'x')).toThrow('the list names no publisher');
  });
});

describe('readVerifiedPublishers', () => {
  it('reads the comma-separated setting, or a file one name a line; null with neither', async () => {
    expect(await readVerifiedPublishers({ list: 'acme, @Beta', file: null })).toEqual(['acme', 'beta']);
    const file = join(scratch, 'publishers.txt');
    await writeFile(file, '# publishers we vouch for\r\nacme\n\nbeta-corp\n');
    expect(await readVerifiedPublishers({ list: null, file })).toEqual(['acme', 'beta-corp']);
    expect(await readVerifiedPublishers({ list: null, file: null })).toBeNull();
  });

  it('names the file and line of a bad entry, a file it cannot read, and refuses both settings at once', async () => {
    const file = join(scratch, 'bad.txt');
    await writeFile(file, 'acme\nnot/ok\n');
    await expect(readVerifiedPublishers({ list: null, file })).rejects.toThrow(`line 2 of ${file}: "not/ok"`);
    await expect(readVerifiedPublishers({ list: null, file: join(scratch, 'missing.txt') })).rejects.toThrow(
      /cannot read .*missing\.txt \(ENOENT\)/,
    );
    await expect(readVerifiedPublishers({ list: 'acme', file })).rejects.toThrow('not both');
  });

  it('is what serve reads from its flags and from the environment', () => {
    expect(readServeSettings(['--verified-publishers', 'acme'], {}).verifiedPublishers).toEqual({
      list: 'acme',
      file: null,
    });
    const fromEnv = readServeSettings([], { MCP_ATLAS_VERIFIED_PUBLISHERS_FILE: 'lists/publishers.txt' });
    expect(fromEnv.verifiedPublishers.list).toBeNull();
    expect(fromEnv.verifiedPublishers.file).toMatch(/\/lists\/publishers\.txt$/);
  });
});

describe('serve with a list it cannot read', () => {
  it('stops at start with one clear line, before it opens its store', async () => {
    const data = join(scratch, 'never-made');
    const missing = join(scratch, 'no-such-list.txt');
    const settings = readServeSettings(['--data', data, '--port', '0', '--verified-publishers-file', missing], {});
    const started = startServe(settings, createLogger('silent'), { handleSignals: false });
    await expect(started).rejects.toThrow(UsageError);
    await expect(started).rejects.toThrow(`--verified-publishers-file: cannot read ${missing} (ENOENT)`);
    await expect(stat(data)).rejects.toThrow(/ENOENT/);
  });
});

describe('the daily score with the operator’s list', () => {
  let mcp: RunningServer;
  beforeAll(async () => {
    mcp = await startSdkServer();
  });
  afterAll(async () => {
    await mcp.close();
  });

  /** A store with one server of the organisation `acme`, checked and scored on DAY by the schedule. */
  async function scoredWith(verifiedPublishers?: readonly string[]) {
    const storage: Storage = createMemoryStorage();
    await putJson(storage, 'state/servers.json', {
      servers: [{ id: 'weather', url: mcp.url, title: 'Weather', source: 'registry' }],
    });
    await writeRegistryScoreFacts(storage, new Map([['weather', weatherFacts()]]));
    const scheduler = await loopbackScheduler(
      storage,
      manualClock(`${DAY}T00:05:00Z`),
      verifiedPublishers === undefined ? {} : { verifiedPublishers },
    );
    expect(await scheduler.runDaily(DAY)).toBe(true);
    return (await readDayScores(storage, DAY)).get('weather');
  }

  it('counts the server as from a verified publisher only when the operator’s list names its organisation', async () => {
    const builtIn = await scoredWith();
    expect(builtIn).toMatchObject({ publisher: 'acme', verifiedPublisher: false });
    const listed = await scoredWith(['acme']);
    expect(listed).toMatchObject({ publisher: 'acme', verifiedPublisher: true });
    // The operator's list replaces the built-in one: a list without acme leaves it unverified.
    expect(await scoredWith(['stripe'])).toMatchObject({ verifiedPublisher: false });
  });
});
