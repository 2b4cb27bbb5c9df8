// One conformance suite that every Storage implementation runs: the contract, not the implementation.
import { describe, expect, it } from 'vitest';
import { SealedDayWriteError, SealedRootWriteError } from '../src/storage/sealed-days.js';
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

    it('refuses to put, append to, delete or create a file under a day once its root exists, and keeps it as it was', async () => {
      const storage = await create();
      await storage.put('days/2026-03-01/index.json', bytes('{"v":1}'));
      await storage.append('days/2026-03-01/reports.jsonl', bytes('r1\n'));
      await storage.put('roots/2026-03-01.json', bytes('{"root":"x"}'));

      await expect(storage.put('days/2026-03-01/index.json', bytes('{"v":2}'))).rejects.toBeInstanceOf(
        SealedDayWriteError,
      );
      await expect(storage.put('days/2026-03-01/results/new.json', bytes('{}'))).rejects.toThrow(
        /day 2026-03-01 is sealed/,
      );
      await expect(storage.append('days/2026-03-01/reports.jsonl', bytes('r2\n'))).rejects.toBeInstanceOf(
        SealedDayWriteError,
      );
      await expect(storage.delete('days/2026-03-01/index.json')).rejects.toBeInstanceOf(SealedDayWriteError);
      await expect(storage.createIfAbsent('days/2026-03-01/late.json', bytes('{}'))).rejects.toBeInstanceOf(
        SealedDayWriteError,
      );
      expect(text(await storage.get('days/2026-03-01/index.json'))).toBe('{"v":1}');
      expect(text(await storage.get('days/2026-03-01/reports.jsonl'))).toBe('r1\n');
      expect(await storage.list('days/2026-03-01/')).toEqual([
        'days/2026-03-01/index.json',
        'days/2026-03-01/reports.jsonl',
      ]);
      // Deleting a file the sealed day never had changes nothing, so it is not refused.
      await expect(storage.delete('days/2026-03-01/never.json')).resolves.toBeUndefined();
    });

    it('lets a sealed day file be put again with the very bytes it holds (a fold that runs again), and nothing else', async () => {
      const storage = await create();
      await storage.put('days/2026-03-01/summary.json', bytes('{"servers":3}\n'));
      await storage.put('roots/2026-03-01.json', bytes('{"root":"x"}'));
      await expect(storage.put('days/2026-03-01/summary.json', bytes('{"servers":3}\n'))).resolves.toBeUndefined();
      await expect(storage.put('days/2026-03-01/summary.json', bytes('{"servers":3} \n'))).rejects.toBeInstanceOf(
        SealedDayWriteError,
      );
      await expect(storage.put('days/2026-03-01/summary.json', bytes('{"servers":3}'))).rejects.toBeInstanceOf(
        SealedDayWriteError,
      );
      // An empty append adds nothing either, but appends are for logs, and a sealed log is closed.
      await expect(storage.append('days/2026-03-01/summary.json', bytes(''))).rejects.toBeInstanceOf(
        SealedDayWriteError,
      );
      expect(text(await storage.get('days/2026-03-01/summary.json'))).toBe('{"servers":3}\n');
      // A file the sealed day never had cannot be put, even empty.
      await expect(storage.put('days/2026-03-01/empty.json', bytes(''))).rejects.toBeInstanceOf(SealedDayWriteError);
      expect(await storage.list('days/2026-03-01/')).toEqual(['days/2026-03-01/summary.json']);
    });

    it('keeps an unsealed day, the day after a sealed one and rolling state writable', async () => {
      const storage = await create();
      await storage.put('roots/2026-03-01.json', bytes('{"root":"x"}'));
      // The root of 03-01 says nothing about 03-02, nor about a day folder whose name merely starts alike.
      await storage.put('days/2026-03-02/index.json', bytes('{"v":1}'));
      await storage.put('days/2026-03-02/index.json', bytes('{"v":2}'));
      await storage.append('days/2026-03-02/reports.jsonl', bytes('r1\n'));
      await storage.append('days/2026-03-02/reports.jsonl', bytes('r2\n'));
      expect(await storage.createIfAbsent('days/2026-03-02/packages.json', bytes('[]'))).toBe(true);
      await storage.delete('days/2026-03-02/packages.json');
      await storage.put('state/servers.json', bytes('[]'));
      await storage.put('days-extra/2026-03-01/x.json', bytes('{}'));
      expect(text(await storage.get('days/2026-03-02/index.json'))).toBe('{"v":2}');
      expect(text(await storage.get('days/2026-03-02/reports.jsonl'))).toBe('r1\nr2\n');
      expect(await storage.get('days/2026-03-02/packages.json')).toBeNull();
    });

    it('writes a root once: the same bytes again pass, other bytes, an append or a delete are refused', async () => {
      const storage = await create();
      const record = bytes('{"day":"2026-03-01","root":"ab"}\n');
      await storage.put('roots/2026-03-01.json', record);
      // A seal run twice over the same day and key writes the same bytes (Ed25519 is deterministic): allowed.
      await expect(storage.put('roots/2026-03-01.json', bytes('{"day":"2026-03-01","root":"ab"}\n'))).resolves.toBe(
        undefined,
      );
      await expect(
        storage.put('roots/2026-03-01.json', bytes('{"day":"2026-03-01","root":"cd"}\n')),
      ).rejects.toBeInstanceOf(SealedRootWriteError);
      await expect(storage.put('roots/2026-03-01.json', bytes(''))).rejects.toBeInstanceOf(SealedRootWriteError);
      await expect(storage.append('roots/2026-03-01.json', bytes('more'))).rejects.toBeInstanceOf(SealedRootWriteError);
      await expect(storage.delete('roots/2026-03-01.json')).rejects.toBeInstanceOf(SealedRootWriteError);
      expect(await storage.createIfAbsent('roots/2026-03-01.json', bytes('other'))).toBe(false);
      expect(await storage.get('roots/2026-03-01.json')).toEqual(record);
      expect(await storage.list('roots/')).toEqual(['roots/2026-03-01.json']);
      // A root error is a sealed-history error too, so one guard catches both.
      await expect(storage.delete('roots/2026-03-01.json')).rejects.toBeInstanceOf(SealedDayWriteError);
      // A root never written can be created by an append, and deleting one that is missing changes nothing.
      await storage.append('roots/2026-03-02.json', bytes('{"day":"2026-03-02"}'));
      expect(text(await storage.get('roots/2026-03-02.json'))).toBe('{"day":"2026-03-02"}');
      await expect(storage.delete('roots/2026-03-03.json')).resolves.toBeUndefined();
    });

    it('creates a file only when it is absent: true the first time, then false with the bytes unchanged', async () => {
      const storage = await create();
      expect(await storage.createIfAbsent('keys/signing-key.json', bytes('first'))).toBe(true);
      expect(await storage.createIfAbsent('keys/signing-key.json', bytes('second'))).toBe(false);
      expect(text(await storage.get('keys/signing-key.json'))).toBe('first');
      await storage.put('state/a.json', bytes('put'));
      expect(await storage.createIfAbsent('state/a.json', bytes('created'))).toBe(false);
      expect(text(await storage.get('state/a.json'))).toBe('put');
      expect(await storage.list('keys/')).toEqual(['keys/signing-key.json']);
      await expect(storage.createIfAbsent('x.tmp', bytes('x'))).rejects.toBeInstanceOf(StoragePathError);
    });

    it('lets exactly one of 20 concurrent createIfAbsent calls on one path win, and keeps its bytes whole', async () => {
      const storage = await create();
      const payloads = Array.from({ length: 20 }, (_, i) => `${i}:${'k'.repeat(32 * 1024)}`);
      const results = await Promise.all(
        payloads.map((payload) => storage.createIfAbsent('keys/race.json', bytes(payload))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect(text(await storage.get('keys/race.json'))).toBe(payloads[winner]);
      expect(await storage.list('keys/')).toEqual(['keys/race.json']);
    });
  });
}
