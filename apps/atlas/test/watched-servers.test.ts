// The watched list: the registry's list plus the submitted servers that passed their observation.
import { describe, expect, it } from 'vitest';
import {
  addSubmittedServer,
  readSubmittedServers,
  readWatchedServers,
  writeWatchedServers,
} from '../src/data/watched-servers.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';

const submitted = (id: string) => ({
  id,
  url: `https://${id}.example.org/mcp`,
  source: 'submitted' as const,
  submittedAt: '2026-12-01T00:00:00.000Z',
});

describe('submitted servers on the watched list', () => {
  it('keeps every server admitted at the same moment (the adds read and rewrite one file)', async () => {
    const storage = createMemoryStorage();
    await Promise.all(['b', 'a', 'd', 'c'].map((id) => addSubmittedServer(storage, submitted(id))));
    expect((await readSubmittedServers(storage)).map((s) => s.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('replaces an entry with the same id, and lets the registry entry win a shared URL', async () => {
    const storage = createMemoryStorage();
    await addSubmittedServer(storage, submitted('a'));
    await addSubmittedServer(storage, { ...submitted('a'), title: 'A again' });
    expect(await readSubmittedServers(storage)).toEqual([{ ...submitted('a'), title: 'A again' }]);
    await writeWatchedServers(storage, [{ id: 'reg-a', url: 'https://a.example.org/mcp', source: 'registry' }]);
    await addSubmittedServer(storage, submitted('z'));
    expect((await readWatchedServers(storage)).map((s) => s.id)).toEqual(['reg-a', 'z']);
  });
});
