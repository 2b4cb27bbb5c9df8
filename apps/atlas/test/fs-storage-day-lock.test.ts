// The folder store's day lock: within one process, a day's root is never created between another write's seal
// check and its landing. The file system's rename, open and link are wrapped here (this file only) so a test can
// hold a write at the exact instant between the two and try to seal the day then. The hold ends on an event, not
// a timer: when the root's link is called (what happens without the lock: the root lands in that instant and the
// write changes a sealed day after its root), or when the seal is queued behind the write's lock.
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { dayLocksOf, KeyedLocks, SharedExclusiveLock } from '../src/storage/day-locks.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { SealedDayWriteError } from '../src/storage/sealed-days.js';
import type { Storage } from '../src/storage/storage.js';
import { waitFor, waitForQueuedSteps } from './setup/wait-for.js';

/** What the wrapped calls run first: set by a test, cleared after each. */
const hooks = vi.hoisted(() => ({
  beforeRename: null as ((to: string) => Promise<void>) | null,
  beforeOpen: null as ((path: string, flags: string) => Promise<void>) | null,
  /** Every path a link was made to, in order: a root is created by link(). */
  linked: [] as string[],
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    rename: async (from: string, to: string) => {
      await hooks.beforeRename?.(String(to));
      return actual.rename(from, to);
    },
    open: async (path: string, flags?: string, mode?: number) => {
      await hooks.beforeOpen?.(String(path), String(flags));
      return actual.open(path, flags, mode);
    },
    link: async (from: string, to: string) => {
      hooks.linked.push(String(to));
      return actual.link(from, to);
    },
  };
});

const folders: string[] = [];
const bytes = (text: string) => new TextEncoder().encode(text);
const DAY = '2026-03-01';
const ROOT = `roots/${DAY}.json`;

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'atlas-day-lock-'));
  folders.push(folder);
  return folder;
}

/**
 * Waits, while a write is held, until the seal of `DAY` in the folder `root` has either linked its root (no lock
 * held it back) or queued behind the day's lock. Returns which came first.
 */
async function sealOutcome(root: string): Promise<'linked' | 'queued'> {
  const rootPath = join(realpathSync(root), ROOT);
  const locks = dayLocksOf(realpathSync(root));
  let outcome: 'linked' | 'queued' | null = null;
  await waitFor('the seal links its root or queues for the day lock', () => {
    if (hooks.linked.includes(rootPath)) outcome = 'linked';
    else if (locks.waitersOf(DAY) > 0) outcome = 'queued';
    return outcome !== null;
  });
  return outcome as unknown as 'linked' | 'queued';
}

/** What a seal of DAY started while a write was held had done when the write went on to land. */
interface HeldSeal {
  /** The root's put, once started. */
  sealing: Promise<void> | null;
  /** Whether the seal linked its root or queued behind the day's lock (sealOutcome). */
  outcome: 'linked' | 'queued' | null;
  /** Whether the root existed when the held write went on. */
  rootExisted: boolean | null;
}

/**
 * A seal to start from inside a write's hook: `start` puts DAY's root through `sealer`, runs `meanwhile` (if
 * any), waits for the seal's outcome and notes whether the root exists as the held write goes on.
 */
function sealWhileHeld(root: string, sealer: Storage, meanwhile?: () => Promise<void>) {
  const seen: HeldSeal = { sealing: null, outcome: null, rootExisted: null };
  return {
    seen,
    started: () => seen.sealing !== null,
    async start(): Promise<void> {
      seen.sealing = sealer.put(ROOT, bytes('{"root":"r"}'));
      await meanwhile?.();
      seen.outcome = await sealOutcome(root);
      seen.rootExisted = existsSync(join(root, ROOT));
    },
  };
}

afterEach(() => {
  hooks.beforeRename = null;
  hooks.beforeOpen = null;
  hooks.linked.length = 0;
});

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('the folder store seals a day only between writes', () => {
  it('makes a seal wait for a put that has passed its check, and refuses the puts after it', async () => {
    const root = await tempFolder();
    const storage = createFsStorage(root);
    const path = `days/${DAY}/index.json`;
    await storage.put(path, bytes('v1'));
    const seal = sealWhileHeld(root, storage);
    hooks.beforeRename = async (to) => {
      // The put has checked for the root and is about to rename: seal the day now.
      if (!seal.started() && to.endsWith('index.json')) await seal.start();
    };
    await storage.put(path, bytes('v2'));
    await seal.seen.sealing;
    expect(seal.seen.outcome).toBe('queued');
    expect(seal.seen.rootExisted).toBe(false);
    expect(existsSync(join(root, ROOT))).toBe(true);
    await expect(storage.put(path, bytes('v3'))).rejects.toBeInstanceOf(SealedDayWriteError);
    expect(await readFile(join(root, path), 'utf8')).toBe('v2');
  });

  it('makes a seal wait for an append batch in flight, and refuses the batches after it', async () => {
    const root = await tempFolder();
    const storage = createFsStorage(root);
    const log = `days/${DAY}/reports.jsonl`;
    const seal = sealWhileHeld(root, storage);
    hooks.beforeOpen = async (path, flags) => {
      if (!seal.started() && path.endsWith('reports.jsonl') && flags.startsWith('a')) await seal.start();
    };
    await storage.append(log, bytes('r1\n'));
    await seal.seen.sealing;
    expect(seal.seen.outcome).toBe('queued');
    expect(seal.seen.rootExisted).toBe(false);
    await expect(storage.append(log, bytes('r2\n'))).rejects.toBeInstanceOf(SealedDayWriteError);
    expect(await readFile(join(root, log), 'utf8')).toBe('r1\n');
  });

  it('shares the lock between two stores over one folder, and not with another day', async () => {
    const root = await tempFolder();
    const [writer, sealer] = [createFsStorage(root), createFsStorage(root)];
    let otherDay: Promise<void> | null = null;
    // Another day's root is not held back by this day's write.
    const seal = sealWhileHeld(root, sealer, async () => {
      otherDay = sealer.put('roots/2026-03-02.json', bytes('{"root":"s"}'));
      await otherDay;
    });
    hooks.beforeRename = async (to) => {
      if (!seal.started() && to.endsWith('summary.json')) await seal.start();
    };
    await writer.put(`days/${DAY}/summary.json`, bytes('{}'));
    await seal.seen.sealing;
    expect(otherDay).not.toBeNull();
    expect(seal.seen.outcome).toBe('queued');
    expect(seal.seen.rootExisted).toBe(false);
  });
});

describe('SharedExclusiveLock', () => {
  /** A task that records when it starts and ends, and ends when `release` is called. */
  function heldTask(log: string[], name: string) {
    let release: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const task = async () => {
      log.push(`${name}+`);
      await done;
      log.push(`${name}-`);
    };
    return { task, release };
  }

  it('lets shared holders run together, and an exclusive one only alone', async () => {
    const lock = new SharedExclusiveLock();
    const log: string[] = [];
    const [a, b, x] = [heldTask(log, 'a'), heldTask(log, 'b'), heldTask(log, 'x')];
    const runs = [lock.run(false, a.task), lock.run(false, b.task), lock.run(true, x.task)];
    await waitForQueuedSteps();
    expect(log).toEqual(['a+', 'b+']);
    a.release();
    await waitForQueuedSteps();
    expect(log).toEqual(['a+', 'b+', 'a-']);
    b.release();
    await waitForQueuedSteps();
    expect(log).toEqual(['a+', 'b+', 'a-', 'b-', 'x+']);
    x.release();
    await Promise.all(runs);
    expect(lock.idle).toBe(true);
  });

  it('makes shared holders that come after a waiting exclusive one wait for it', async () => {
    const lock = new SharedExclusiveLock();
    const log: string[] = [];
    const [a, x, b] = [heldTask(log, 'a'), heldTask(log, 'x'), heldTask(log, 'b')];
    const runs = [lock.run(false, a.task), lock.run(true, x.task), lock.run(false, b.task)];
    await waitForQueuedSteps();
    expect(log).toEqual(['a+']);
    a.release();
    await waitForQueuedSteps();
    expect(log).toEqual(['a+', 'a-', 'x+']);
    x.release();
    await waitForQueuedSteps();
    expect(log).toEqual(['a+', 'a-', 'x+', 'x-', 'b+']);
    b.release();
    await Promise.all(runs);
  });

  it('releases the lock when a task throws', async () => {
    const lock = new SharedExclusiveLock();
    await expect(
      lock.run(true, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(lock.idle).toBe(true);
    await expect(lock.run(true, async () => 'after')).resolves.toBe('after');
  });

  it('forgets a key once nobody holds or waits for it', async () => {
    const locks = new KeyedLocks();
    let seen = -1;
    await locks.run('2026-03-01', false, async () => {
      seen = locks.size;
    });
    expect(seen).toBe(1);
    expect(locks.size).toBe(0);
  });
});
