// The signing key on disk: written 0600 in a 0700 keys/ folder, and a key file someone loosened is
// tightened back to 0600 with a warning before it is used (by the service and by `verify`).
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_OK, runCommand } from '../src/commands.js';
import { createLogger } from '../src/log.js';
import {
  KEY_FILE_MODE,
  KEY_FOLDER_MODE,
  loadOrCreateSigningKeys,
  loadSigningKeys,
  secureKeyFile,
} from '../src/seal/keys.js';
import { createFsStorage } from '../src/storage/fs-storage.js';

const NOW = new Date('2026-11-02T00:00:00Z');
const folders: string[] = [];

async function dataFolder(): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'atlas-keys-'));
  folders.push(parent);
  return join(parent, 'data'); // not created yet: the key's write creates it
}

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('the signing key file', () => {
  it('has owner-only modes as named constants', () => {
    expect(KEY_FILE_MODE).toBe(0o600);
    expect(KEY_FOLDER_MODE).toBe(0o700);
  });

  it('is created 0600 inside a new 0700 keys/ folder, and loads back as the same key', async () => {
    const dir = await dataFolder();
    const storage = createFsStorage(dir);
    const made = await loadOrCreateSigningKeys(storage, NOW, { dataDir: dir });
    expect(await modeOf(join(dir, 'keys', 'signing-key.json'))).toBe(0o600);
    expect(await modeOf(join(dir, 'keys'))).toBe(0o700);
    const loaded = await loadSigningKeys(storage, { dataDir: dir });
    expect(loaded?.publicKey).toEqual(made.publicKey);
  });

  it('is tightened to 0600 with a warning when it is open to others', async () => {
    const dir = await dataFolder();
    const storage = createFsStorage(dir);
    const made = await loadOrCreateSigningKeys(storage, NOW, { dataDir: dir });
    const file = join(dir, 'keys', 'signing-key.json');
    await chmod(file, 0o644);
    const warnings: string[] = [];
    const loaded = await loadOrCreateSigningKeys(storage, NOW, {
      dataDir: dir,
      warn: (message) => warnings.push(message),
    });
    expect(loaded.publicKey).toEqual(made.publicKey); // the same key, not a new one
    expect(await modeOf(file)).toBe(0o600);
    expect(warnings).toEqual([`the signing key ${file} had permissions 0644, open to other users; tightened to 0600`]);
    // Already tight: nothing to do, nothing said.
    expect(await secureKeyFile(dir, (message) => warnings.push(message))).toBe(false);
    expect(warnings).toHaveLength(1);
  });

  it('leaves a missing key file alone', async () => {
    const dir = await dataFolder();
    expect(await secureKeyFile(dir, () => undefined)).toBe(false);
  });

  it('is tightened by verify too, which warns on stderr and still verifies', async () => {
    const dir = await dataFolder();
    await loadOrCreateSigningKeys(createFsStorage(dir), NOW, { dataDir: dir });
    const file = join(dir, 'keys', 'signing-key.json');
    await chmod(file, 0o640);
    let err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
    expect(await runCommand(['verify', '--data', dir, '--allow-empty'], createLogger('silent'))).toBe(EXIT_OK);
    vi.restoreAllMocks();
    expect(await modeOf(file)).toBe(0o600);
    expect(err).toContain(
      `mcp-atlas: the signing key ${file} had permissions 0640, open to other users; tightened to 0600\n`,
    );
  });
});
