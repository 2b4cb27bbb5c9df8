// Benchmark for @mcp-atlas/history, run on the build (`pnpm bench` builds first).
// Every figure is a ratio against a baseline timed in the same run on the same bytes:
//   - sealing a day vs GNU `sha256sum` over the same files on disk (target: at most 1.5x);
//   - verifying 365 day roots vs the seed's verification steps done with node:crypto alone.
// Each timing is the median of several rounds after one warm-up round; within a round the
// baseline and the candidates run one after another, so load from other processes hits all alike.
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { shiftDay } from '@mcp-atlas/base';
import * as ed from '@noble/ed25519';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import {
  computeRoot,
  previousRootFor,
  privateKeyPem,
  publicKeyFor,
  publicKeyPem,
  sealDay,
  verifyChain,
} from '../dist/index.js';
import { nodeSha256, readDayFiles } from '../dist/node.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DAYS = 365;
const privateKey = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 7) & 0xff);
const publicKey = publicKeyFor(privateKey);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// Times every function in `fns` (an object of name -> fn) in interleaved rounds; returns medians.
async function compare(fns) {
  const samples = Object.fromEntries(Object.keys(fns).map((name) => [name, []]));
  for (let round = -1; round < RUNS; round++) {
    for (const [name, fn] of Object.entries(fns)) {
      const start = performance.now();
      await fn();
      if (round >= 0) samples[name].push(performance.now() - start);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

// A fixed pseudo-random sequence (LCG) so every run builds the same day.
function sequence(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

// File sizes shaped like a real day of results and tool catalogs: mostly a few KB, a tail of
// tens of KB, and a few files of hundreds of KB (median about 4.5 KB, mean about 16 KB).
function realisticSize(next) {
  const band = next();
  if (band < 0.8) return 1_024 + Math.floor(next() * 7 * 1_024);
  if (band < 0.98) return 8 * 1_024 + Math.floor(next() * 56 * 1_024);
  return 64 * 1_024 + Math.floor(next() * 448 * 1_024);
}

function jsonLikeBytes(size, salt) {
  const unit = Buffer.from(`{"tool":"t${salt}","ok":true,"ms":${salt % 997},"note":"made for the benchmark"},`);
  const bytes = Buffer.alloc(size);
  for (let offset = 0; offset < size; offset += unit.length)
    unit.copy(bytes, offset, 0, Math.min(unit.length, size - offset));
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

function buildDay(count, sizeOf) {
  const next = sequence(count);
  return Array.from({ length: count }, (_, i) => {
    const folder = i % 10 === 0 ? 'results' : 'catalogs';
    return { path: `${folder}/${String(i).padStart(5, '0')}.json`, bytes: jsonLikeBytes(sizeOf(next), i) };
  });
}

function writeDay(files) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-history-bench-'));
  for (const { path, bytes } of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  return dir;
}

function mb(files) {
  return files.reduce((sum, file) => sum + file.bytes.length, 0) / 1_048_576;
}

function fmt(ms) {
  return `${ms.toFixed(1)} ms`;
}

function ratio(ms, baseline) {
  return `${(ms / baseline).toFixed(2)}x`;
}

async function benchSeal(label, files) {
  const dir = writeDay(files);
  const paths = files.map((file) => file.path);
  try {
    const input = { day: '2026-10-02', files, previousRoot: null, privateKey };
    const expected = execFileSync('sha256sum', ['--', ...paths], { cwd: dir, maxBuffer: 1 << 28 })
      .toString()
      .trimEnd()
      .split('\n')
      .sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1));
    const sealed = await sealDay(input);
    if (sealed.files.join('\n') !== expected.join('\n')) throw new Error('our lines differ from sha256sum');

    const { sha256sum, nodeLoop, sealNoble, sealNode, readAndSeal } = await compare({
      sha256sum: () => execFileSync('sha256sum', ['--', ...paths], { cwd: dir, maxBuffer: 1 << 28 }),
      nodeLoop: () => {
        for (const file of files) createHash('sha256').update(file.bytes).digest();
      },
      sealNoble: () => sealDay(input),
      sealNode: () => sealDay({ ...input, sha256: nodeSha256 }),
      readAndSeal: async () => sealDay({ ...input, files: await readDayFiles(dir), sha256: nodeSha256 }),
    });
    console.log(`\n## Seal ${label}: ${files.length} files, ${mb(files).toFixed(1)} MB`);
    console.log('| what | time | vs sha256sum |');
    console.log('|---|---|---|');
    console.log(`| \`sha256sum\` over the files on disk (baseline) | ${fmt(sha256sum)} | 1.00x |`);
    console.log(
      `| node:crypto createHash loop, bytes in memory (floor) | ${fmt(nodeLoop)} | ${ratio(nodeLoop, sha256sum)} |`,
    );
    console.log(
      `| sealDay, default SHA-256 (@noble/hashes), bytes in memory | ${fmt(sealNoble)} | ${ratio(sealNoble, sha256sum)} |`,
    );
    console.log(`| sealDay with nodeSha256, bytes in memory | ${fmt(sealNode)} | ${ratio(sealNode, sha256sum)} |`);
    console.log(
      `| readDayFiles + sealDay with nodeSha256, from disk | ${fmt(readAndSeal)} | ${ratio(readAndSeal, sha256sum)} |`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchVerify(linesPerDay) {
  const lines = buildDay(linesPerDay, () => 0).map(
    (file, i) => `${createHash('sha256').update(String(i)).digest('hex')}  ${file.path}`,
  );
  lines.sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1));
  const nodeKey = createPrivateKey(privateKeyPem(privateKey));
  const roots = new Map();
  const records = [];
  for (let i = 0; i < DAYS; i++) {
    const day = shiftDay('2025-10-01', i);
    const previous = previousRootFor(day, roots);
    const root = computeRoot(previous, lines, { sha256: nodeSha256 });
    const signature = sign(null, Buffer.from(root, 'hex'), nodeKey).toString('base64');
    roots.set(day, root);
    records.push({ day, root, previous_root: previous, files: lines, signature });
  }
  const pem = publicKeyPem(publicKey);
  const { snippet, nobleFloor, chainNoble, chainNode } = await compare({
    snippet: () => {
      const key = createPublicKey(pem);
      for (const r of records) {
        const root = createHash('sha256')
          .update(`${r.previous_root || ''}\n${r.files.join('\n')}`)
          .digest('hex');
        if (root !== r.root || !verify(null, Buffer.from(r.root, 'hex'), key, Buffer.from(r.signature, 'base64')))
          throw new Error('snippet failed');
      }
    },
    // The library floor: the same hashing and Ed25519 checks with @noble directly, nothing else.
    nobleFloor: () => {
      ed.hashes.sha512 ??= sha512;
      for (const r of records) {
        const root = Buffer.from(
          sha256(new TextEncoder().encode(`${r.previous_root || ''}\n${r.files.join('\n')}`)),
        ).toString('hex');
        if (
          root !== r.root ||
          !ed.verify(Buffer.from(r.signature, 'base64'), Buffer.from(r.root, 'hex'), publicKey, { zip215: false })
        )
          throw new Error('floor failed');
      }
    },
    chainNoble: async () => {
      if (!(await verifyChain(records, publicKey)).ok) throw new Error('chain failed');
    },
    chainNode: async () => {
      if (!(await verifyChain(records, publicKey, { sha256: nodeSha256 })).ok) throw new Error('chain failed');
    },
  });
  console.log(`\n## Verify ${DAYS} day roots, ${linesPerDay} lines each`);
  console.log('| what | time | vs node:crypto snippet |');
  console.log('|---|---|---|');
  console.log(`| seed's steps with node:crypto, no chain or line checks (baseline) | ${fmt(snippet)} | 1.00x |`);
  console.log(
    `| the same steps with @noble directly, no chain or line checks (library floor) | ${fmt(nobleFloor)} | ${ratio(nobleFloor, snippet)} |`,
  );
  console.log(
    `| verifyChain, default SHA-256 (@noble/hashes) | ${fmt(chainNoble)} | ${ratio(chainNoble, snippet)} (${ratio(chainNoble, nobleFloor)} of the floor) |`,
  );
  console.log(`| verifyChain with nodeSha256 | ${fmt(chainNode)} | ${ratio(chainNode, snippet)} |`);
}

console.log(`# @mcp-atlas/history benchmark (Node ${process.version}, median of ${RUNS} runs after a warm-up)`);
await benchSeal('10,000 real-sized files', buildDay(10_000, realisticSize));
await benchSeal(
  '1,000 files of 50 KB',
  buildDay(1_000, () => 50 * 1_024),
);
await benchVerify(100);
await benchVerify(10_000);
