// One conformance suite that every Storage implementation runs: the contract, not the implementation.
import { describe, expect, it } from 'vitest';
import { type Storage, StoragePathError } from '../src/storage/storage.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | null) => (data === null ? null : new TextDecoder().decode(data));

/**
 * Declares the Storage contract's tests for one driver; `create` makes a fresh, empty store for each test (the
 * caller closes what needs closing, in its own afterAll).
 */
export function describeStorageConformance(name: string, create: () => Promise<Storage>): void {
  describe(`${name} keeps the Storage contract`, () => {
    it('returns null for a path never written', async () => {
      const storage = await create();
      expect(await storage.get('days/2026-01-01/index.json')).toBeNull();
    });

    it('returns the bytes last put, byte for byte', async () => {
      const storage = await create();
      const payload = new Uint8Array([0, 255, 10, 13, 0xe2, 0x82, 0xac]);
      await storage.put('a/b.bin', payload);
      expect(await storage.get('a/b.bin')).toEqual(payload);
      await storage.put('a/b.bin', bytes('second'));
      expect(text(await storage.get('a/b.bin'))).toBe('second');
    });

    it('is not affected by later changes to the buffer that was put or got', async () => {
      const storage = await create();
      const payload = bytes('abc');
      await storage.put('x.txt', payload);
      payload[0] = 122;
      const got = await storage.get('x.txt');
      expect(text(got)).toBe('abc');
      got![0] = 122;
      expect(text(await storage.get('x.txt'))).toBe('abc');
    });

    it('lists by prefix, sorted, including nested folders', async () => {
      const storage = await create();
      await storage.put('days/2026-01-02/results/1.json', bytes('1'));
      await storage.put('days/2026-01-02/index.json', bytes('i'));
      await storage.put('days/2026-01-01/index.json', bytes('i'));
      await storage.put('roots/2026-01-01.json', bytes('r'));
      expect(await storage.list('days/2026-01-02/')).toEqual([
        'days/2026-01-02/index.json',
        'days/2026-01-02/results/1.json',
      ]);
      expect(await storage.list('days/')).toHaveLength(3);
      expect(await storage.list('roots/2026-01')).toEqual(['roots/2026-01-01.json']);
      expect(await storage.list('')).toHaveLength(4);
      expect(await storage.list('nothing/')).toEqual([]);
    });

    it('deletes, and deleting a missing path is fine', async () => {
      const storage = await create();
      await storage.put('state/s.json', bytes('{}'));
      await storage.delete('state/s.json');
      expect(await storage.get('state/s.json')).toBeNull();
      await expect(storage.delete('state/s.json')).resolves.toBeUndefined();
      expect(await storage.list('state/')).toEqual([]);
    });

    it.each(['', '/abs', '../up', 'a/../b', 'a//b', 'a/./b', 'a\\b', 'sp ace', 'x.tmp'])(
      'refuses the path %j',
      async (path) => {
        const storage = await create();
        await expect(storage.put(path, bytes('x'))).rejects.toBeInstanceOf(StoragePathError);
        await expect(storage.get(path)).rejects.toBeInstanceOf(StoragePathError);
      },
    );

    it('appends: creates the file, then adds bytes at its end, byte for byte', async () => {
      const storage = await create();
      await storage.append('days/2026-01-01/reports.jsonl', bytes('one\n'));
      await storage.append('days/2026-01-01/reports.jsonl', new Uint8Array([0, 255, 10]));
      await storage.append('days/2026-01-01/reports.jsonl', bytes(''));
      expect(await storage.get('days/2026-01-01/reports.jsonl')).toEqual(
        new Uint8Array([...bytes('one\n'), 0, 255, 10]),
      );
      expect(await storage.list('days/')).toEqual(['days/2026-01-01/reports.jsonl']);
    });

    it('appends after a put, and is not affected by later changes to the appended buffer', async () => {
      const storage = await create();
      await storage.put('log.txt', bytes('a'));
      const payload = bytes('b');
      const done = storage.append('log.txt', payload);
      payload[0] = 122;
      await done;
      expect(text(await storage.get('log.txt'))).toBe('ab');
    });

    it('keeps many concurrent appends whole and in the order they were called', async () => {
      const storage = await create();
      const lines = Array.from({ length: 300 }, (_, i) => `${i}:${'y'.repeat(i % 7 === 0 ? 5000 : 20)}\n`);
      await Promise.all(lines.map((line) => storage.append('c/log.jsonl', bytes(line))));
      expect(text(await storage.get('c/log.jsonl'))).toBe(lines.join(''));
    });

    it.each(['', '/abs', '../up', 'x.tmp'])('refuses to append to the path %j', async (path) => {
      const storage = await create();
      await expect(storage.append(path, bytes('x'))).rejects.toBeInstanceOf(StoragePathError);
    });

    it('lets a reader see the old bytes or the new while a put replaces them, never a mix', async () => {
      const storage = await create();
      const versions = ['a', 'b', 'c', 'd'].map((letter) => `${letter}:${letter.repeat(256 * 1024)}`);
      await storage.put('state/big.json', bytes(versions[0]!));
      let writing = true;
      const seen = new Set<string>();
      const readers = Array.from({ length: 4 }, async () => {
        while (writing) {
          const got = text(await storage.get('state/big.json'));
          expect(versions).toContain(got);
          seen.add(got!.slice(0, 1));
        }
      });
      for (let round = 0; round < 12; round++) await storage.put('state/big.json', bytes(versions[round % 4]!));
      writing = false;
      await Promise.all(readers);
      expect(seen.size).toBeGreaterThan(0);
      expect(text(await storage.get('state/big.json'))).toBe(versions[11 % 4]);
    });

    it('keeps every one of many concurrent writes whole', async () => {
      const storage = await create();
      const big = 'x'.repeat(64 * 1024);
      await Promise.all(Array.from({ length: 40 }, (_, i) => storage.put(`c/${i % 4}.txt`, bytes(`${i}:${big}`))));
      for (let i = 0; i < 4; i++) {
        const got = text(await storage.get(`c/${i}.txt`));
        expect(got?.endsWith(big)).toBe(true);
        expect(got).toMatch(/^\d+:/);
      }
    });
  });
}
