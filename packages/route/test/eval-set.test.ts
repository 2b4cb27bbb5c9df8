// The frozen evaluation set v1 is project data: it parses, covers the seed's kinds of job, and has not changed.
import { describe, expect, it } from 'vitest';
import { parseSearchJobs } from '../src/index.js';
import { EVAL_SET_V1_SHA256, EVAL_SET_V2_PATH, EVAL_SET_V2_SHA256, readEvalSet } from './eval/eval-set.js';

const set = readEvalSet();
const document = JSON.parse(set.text) as { version: string; written: string };
const jobs = parseSearchJobs(document);

describe('evaluation set v1', () => {
  it('is frozen: its SHA-256 is the one recorded when it was written', () => {
    expect(document.version).toBe('v1');
    expect(document.written).toBe('2026-12-02T08:45:00Z');
    expect(set.sha256).toBe(EVAL_SET_V1_SHA256);
  });

  it('has at least 100 valid jobs across the kinds of job the seed lists, and more', () => {
    expect(jobs.length).toBe(165);
    const categories = new Set(jobs.map((job) => job.category));
    for (const kind of [
      'email',
      'calendar',
      'databases',
      'web-search',
      'payments',
      'files',
      'code',
      'crm',
      'docs',
      'maps',
      'weather',
      'translation',
      'scraping',
      'images',
      'analytics',
      'ticketing',
      'chat',
      'storage',
      'sign-in',
      'monitoring',
    ]) {
      expect(categories.has(kind), kind).toBe(true);
    }
    expect(categories.size).toBe(30);
  });

  it('uses every allowance', () => {
    const allowances = new Map<string, number>();
    for (const job of jobs) allowances.set(job.allow, (allowances.get(job.allow) ?? 0) + 1);
    expect(Object.fromEntries(allowances)).toEqual({ read: 92, change: 41, any: 32 });
  });
});

describe('evaluation set v2', () => {
  const v2 = readEvalSet(EVAL_SET_V2_PATH);
  const v2Document = JSON.parse(v2.text) as { version: string; written: string };
  const v2Jobs = parseSearchJobs(v2Document);

  it('is frozen: its SHA-256 is the one recorded when it was written', () => {
    expect(v2Document.version).toBe('v2');
    expect(v2Document.written).toBe('2026-12-03T00:10:20Z');
    expect(v2.sha256).toBe(EVAL_SET_V2_SHA256);
  });

  it('has 165 valid jobs over 28 kinds, with every allowance', () => {
    expect(v2Jobs.length).toBe(165);
    expect(new Set(v2Jobs.map((job) => job.category)).size).toBe(28);
    const allowances = new Map<string, number>();
    for (const job of v2Jobs) allowances.set(job.allow, (allowances.get(job.allow) ?? 0) + 1);
    expect(Object.fromEntries(allowances)).toEqual({ read: 63, change: 57, any: 45 });
  });
});
