// Shared fixtures for the tests: fixed keys and small, made-up day folders in our own words.
import { shiftDay } from '@mcp-atlas/base';
import { type DayFile, type DayRoot, previousRootFor, publicKeyFor, sealDaySync } from '../src/index.js';

const encoder = new TextEncoder();

export function text(value: string): Uint8Array {
  return encoder.encode(value);
}

export function hex(value: string): Uint8Array {
  return Uint8Array.from(value.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A fixed private key per label, so failures reproduce. */
export function fixedPrivateKey(fill: number): Uint8Array {
  return Uint8Array.from({ length: 32 }, (_, i) => (fill * 37 + i * 11) & 0xff);
}

export const PRIVATE_KEY = fixedPrivateKey(1);
export const PUBLIC_KEY = publicKeyFor(PRIVATE_KEY);
export const OTHER_PRIVATE_KEY = fixedPrivateKey(2);
export const OTHER_PUBLIC_KEY = publicKeyFor(OTHER_PRIVATE_KEY);

/** The files a small observatory might write on one day. */
export function dayFiles(day: string): DayFile[] {
  return [
    { path: 'index.json', bytes: text(`{"day":"${day}","servers":3}`) },
    { path: 'results/000.json', bytes: text(`[{"id":"weather","letter":"a","day":"${day}"}]`) },
    { path: 'results/001.json', bytes: text(`[{"id":"notes","letter":"c","day":"${day}"}]`) },
    { path: 'catalogs/weather.json', bytes: text('{"tools":[{"name":"get_forecast"}]}') },
    { path: 'changes.json', bytes: text('[]') },
    { path: 'summary.json', bytes: text(`{"checked":3,"day":"${day}"}`) },
    { path: 'reports.jsonl', bytes: text('{"server":"weather","ok":true}\n') },
  ];
}

/** Seals `count` consecutive days from `first`, each chained as the seal rule says. */
export function sealedChain(first: string, count: number, privateKey = PRIVATE_KEY): DayRoot[] {
  const roots = new Map<string, string>();
  const records: DayRoot[] = [];
  for (let i = 0; i < count; i++) {
    const day = shiftDay(first, i);
    const record = sealDaySync({ day, files: dayFiles(day), previousRoot: previousRootFor(day, roots), privateKey });
    roots.set(day, record.root);
    records.push(record);
  }
  return records;
}

/** A deep copy, so a test can tamper with a record without touching the fixture. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
