// The demo's live hours are placed relative to the moment it serves: hand-computed instants at and around
// each edge (the hourly minute, midnight, the last hour), and the agents' reports the demo logs.
import { describe, expect, it } from 'vitest';
import { DEMO_RATED_MEMBERS, demoReporters, outageReports, reportsOfDay } from '../src/demo/demo-reports.js';
import type { FleetMember } from '../src/demo/fleet.js';
import { fiveMinuteCheckTimes, hourlyCheckTimes } from '../src/demo/live-checks.js';
import { demoOwnerVerifiedAt } from '../src/demo/run-demo.js';
import { refuseEveryLicense } from '../src/http/license-keys.js';
import { demoLicenseValidator } from '../src/serve/serve-atlas.js';

const secret = new Uint8Array(32).fill(7);

function memberLike(id: string, letter: (day: number) => 'o' | 'd'): FleetMember {
  return {
    id,
    title: id,
    kind: 'healthy',
    version: '1.0.0',
    url: `http://127.0.0.1:1/${id}`,
    publicUrl: `https://${id}.demo-fleet.example/mcp`,
    watched: true,
    expectedLetter: letter,
    tools: () => [{ name: `${id}_tool`, input: null }],
  };
}

describe('the hourly checks', () => {
  it('are the 24 hours up to now at 20 past, the newest at most an hour old', () => {
    const times = hourlyCheckTimes(new Date('2026-11-30T12:00:00.000Z'));
    expect(times).toHaveLength(24);
    expect(times[0]).toBe('2026-11-29T12:20:00.000Z');
    expect(times.at(-1)).toBe('2026-11-30T11:20:00.000Z');
    expect(hourlyCheckTimes(new Date('2026-11-30T12:20:00.000Z')).at(-1)).toBe('2026-11-30T12:20:00.000Z');
    expect(hourlyCheckTimes(new Date('2026-11-30T12:19:59.999Z')).at(-1)).toBe('2026-11-30T11:20:00.000Z');
    // Just after midnight the newest hourly check is the day before's 23:20.
    expect(hourlyCheckTimes(new Date('2026-12-01T00:05:00.000Z')).slice(-2)).toEqual([
      '2026-11-30T22:20:00.000Z',
      '2026-11-30T23:20:00.000Z',
    ]);
  });
});

describe('the owner and the five-minute checks', () => {
  it('verify 65 minutes before the midnight that starts the day, or two hours before now when that is earlier', () => {
    expect(demoOwnerVerifiedAt(new Date('2026-11-30T12:00:00.000Z')).toISOString()).toBe('2026-11-29T22:55:00.000Z');
    expect(demoOwnerVerifiedAt(new Date('2026-11-30T01:55:00.000Z')).toISOString()).toBe('2026-11-29T22:55:00.000Z');
    expect(demoOwnerVerifiedAt(new Date('2026-11-30T00:30:00.000Z')).toISOString()).toBe('2026-11-29T22:30:00.000Z');
  });

  it('leave twelve five-minute checks on the day before, every five minutes up to now', () => {
    const times = fiveMinuteCheckTimes(new Date('2026-11-29T22:55:00.000Z'), new Date('2026-11-30T00:30:00.000Z'));
    expect(times.filter((t) => t.startsWith('2026-11-29'))).toHaveLength(12);
    expect(times[0]).toBe('2026-11-29T23:00:00.000Z');
    expect(times.at(-1)).toBe('2026-11-30T00:30:00.000Z');
    expect(times).toHaveLength(19);
  });
});

describe('the demo agents’ reports', () => {
  it('are two paying agents (only while the demo validator accepts their keys) and two anonymous networks', async () => {
    const reporters = await demoReporters(secret, demoLicenseValidator);
    expect(reporters.map((r) => r.paid)).toEqual([true, true, false, false]);
    expect(new Set(reporters.map((r) => r.id)).size).toBe(4);
    expect(reporters[0]!.id).toMatch(/^paid:/);
    expect(reporters[2]!.id).toMatch(/^anon:/);
    // Without the demo validator (as under `serve`), the demo keys count for nothing.
    expect((await demoReporters(secret, refuseEveryLicense)).map((r) => r.paid)).toEqual([false, false]);
  });

  it('report once a day per agent and rated member, failing with a server error on a down day', async () => {
    const reporters = await demoReporters(secret, demoLicenseValidator);
    const members = [memberLike('files', (day) => (day === 2 ? 'd' : 'o')), memberLike('maps', () => 'o')];
    expect(DEMO_RATED_MEMBERS).toContain('files');
    expect(DEMO_RATED_MEMBERS).not.toContain('maps');
    const day2 = reportsOfDay('2026-11-03', 2, members, reporters);
    // Both paying agents, and the anonymous agent whose turn it is (day 2: the first anonymous one, index 2).
    expect(day2.map((r) => r.reporter)).toEqual([reporters[0]!.id, reporters[1]!.id, reporters[2]!.id]);
    expect(
      day2.every(
        (r) => r.server === 'files' && r.ok === false && r.reason === 'server_error' && r.at.startsWith('2026-11-03T'),
      ),
    ).toBe(true);
    const day3 = reportsOfDay('2026-11-04', 3, members, reporters);
    expect(day3.map((r) => r.reporter)).toEqual([reporters[0]!.id, reporters[1]!.id, reporters[3]!.id]);
    expect(day3.every((r) => r.ok === true && r.matched === true && typeof r.ms === 'number')).toBe(true);
  });

  it('report the outage inside the last hour, after the break and on today, newest last', async () => {
    const reporters = await demoReporters(secret, demoLicenseValidator);
    const inbox = memberLike('inbox', () => 'o');
    const noon = outageReports(
      inbox,
      reporters,
      new Date('2026-11-30T10:00:00.000Z'),
      new Date('2026-11-30T12:00:00.000Z'),
    );
    expect(noon.map((r) => r.at)).toEqual([
      '2026-11-30T11:12:00.000Z',
      '2026-11-30T11:24:00.000Z',
      '2026-11-30T11:36:00.000Z',
      '2026-11-30T11:48:00.000Z',
    ]);
    expect(noon.every((r) => r.ok === false && r.reason === 'server_error' && r.server === 'inbox')).toBe(true);
    // Ten minutes after midnight: the day before is sealed, so the reports stay on today.
    const early = outageReports(
      inbox,
      reporters,
      new Date('2026-11-29T22:10:00.000Z'),
      new Date('2026-11-30T00:10:00.000Z'),
    );
    expect(early.map((r) => r.at)).toEqual([
      '2026-11-30T00:02:00.000Z',
      '2026-11-30T00:04:00.000Z',
      '2026-11-30T00:06:00.000Z',
      '2026-11-30T00:08:00.000Z',
    ]);
  });
});
