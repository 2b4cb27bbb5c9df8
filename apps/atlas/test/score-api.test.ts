// The quality score on the API: GET /api/leaderboard ordered by tier, then composite, then id; the `score` of
// GET /api/servers/:id; both as the OpenAPI document describes them. Served for real on loopback over the HTTP
// fixture, with hand-made scores files for known tiers and numbers. Also the shown-score helpers the API, the
// pages and `check` share, on hand-computed cases.
import { SCHEMA_QUALITY_RULES } from '@mcp-atlas/score/rules';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCORING_VERSION_HEADER, scoreFreshnessOf } from '../src/http/leaderboard.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import {
  ATLAS_SCORE_SCOPE,
  checklistOf,
  compareScoredServers,
  gradeLabelOf,
  scoreRaisersOf,
} from '../src/score/shown-score.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJsonAt, type RunningFixture, startFixture, VIEW_DAY, writeFixture } from './fixtures/http-atlas.js';
import { handScore, STAGING_FLAG, writeScores } from './fixtures/score-files.js';

const categories = (values: Partial<ReturnType<typeof handScore>['categories']>) => ({
  schemaQuality: null,
  protocol: null,
  reliability: null,
  docsMaintenance: null,
  security: null,
  agentUsability: null,
  ...values,
});

describe('gradeLabelOf', () => {
  it('writes the grade with dimensions scored out of applicable, and "no grade" without a composite', () => {
    expect(gradeLabelOf({ grade: 'A', dimensionsScored: 5, dimensionsApplicable: 5 })).toBe('A (5/5)');
    expect(gradeLabelOf({ grade: 'A+', dimensionsScored: 3, dimensionsApplicable: 5 })).toBe('A+ (3/5)');
    expect(gradeLabelOf({ grade: '', dimensionsScored: 1, dimensionsApplicable: 5 })).toBe('no grade (1/5)');
  });
});

describe('checklistOf', () => {
  it('marks scored, pending and not-applicable dimensions for an observed remote server', () => {
    const list = checklistOf(
      { categories: categories({ schemaQuality: 80, protocol: 100, security: 70 }) },
      ATLAS_SCORE_SCOPE,
    );
    expect(list.map((e) => [e.dimension, e.status, e.score])).toEqual([
      ['schemaQuality', 'scored', 80],
      ['protocol', 'scored', 100],
      ['reliability', 'pending', null],
      ['docsMaintenance', 'pending', null],
      ['security', 'scored', 70],
      ['agentUsability', 'not-applicable', null],
    ]);
  });

  it('leaves reliability not applicable for a local server without reliability data', () => {
    const local = { isRemote: false, hasSandboxProbe: true, hasReliabilityData: false };
    const list = checklistOf({ categories: categories({ schemaQuality: 80, protocol: 100, security: 70 }) }, local);
    expect(list.find((e) => e.dimension === 'reliability')?.status).toBe('not-applicable');
    expect(list.find((e) => e.dimension === 'protocol')?.status).toBe('scored');
  });
});

describe('scoreRaisersOf', () => {
  // Standard weights 25/20/20/15/20. Scored: schema 80, protocol 100, security 70:
  // (20 + 20 + 14) / 0.65 = 83.08 -> 83.
  const base = categories({ schemaQuality: 80, protocol: 100, security: 70 });

  it('lists each pending dimension and weak category at its best, most points first', () => {
    const score = handScore('s', 'limited', 83, { categories: base, dimensionsScored: 3 });
    // security 100: 60 / 0.65 = 92.3 -> 92 (+9); schema 100: 59 / 0.65 = 90.8 -> 91 (+8);
    // reliability 100: 74 / 0.85 = 87.06 -> 87 (+4); docs 100: 69 / 0.8 = 86.25 -> 86 (+3). Protocol is at its best.
    expect(scoreRaisersOf(score, ATLAS_SCORE_SCOPE).map((r) => [r.kind, r.key, r.to, r.points])).toEqual([
      ['category', 'security', 92, 9],
      ['category', 'schemaQuality', 91, 8],
      ['pending', 'reliability', 87, 4],
      ['pending', 'docsMaintenance', 86, 3],
    ]);
  });

  it('names a capping flag as what costs the most, and nothing the cap would swallow', () => {
    // STAGING_ARTIFACT caps at 55; every other change still ends at the cap, so only clearing the flag adds points.
    const score = handScore('s', 'limited', 55, { categories: base, flags: [STAGING_FLAG], dimensionsScored: 3 });
    expect(scoreRaisersOf(score, ATLAS_SCORE_SCOPE).map((r) => [r.kind, r.key, r.to, r.points])).toEqual([
      ['flag', 'STAGING_ARTIFACT', 83, 28],
    ]);
  });

  it('gives a template description its schema-quality penalty back', () => {
    expect(SCHEMA_QUALITY_RULES.templateDescriptionPenalty).toBe(15);
    const template = {
      key: 'TEMPLATE_DESCRIPTION',
      severity: 'warning' as const,
      label: 'Template Description',
      description: '',
    };
    // Schema 65 after the penalty: (16.25 + 20 + 14) / 0.65 = 77.3 -> 77; cleared, schema 80 again: 83 (+6).
    const score = handScore('s', 'limited', 77, {
      categories: { ...base, schemaQuality: 65 },
      flags: [template],
      dimensionsScored: 3,
    });
    expect(scoreRaisersOf(score, ATLAS_SCORE_SCOPE).find((r) => r.kind === 'flag')).toMatchObject({
      key: 'TEMPLATE_DESCRIPTION',
      to: 83,
      points: 6,
    });
  });

  it('counts from 0 for an unscored server: a second dimension gives it a composite', () => {
    const score = handScore('s', 'unscored', null, { categories: categories({ security: 70 }), dimensionsScored: 1 });
    // schema 100: 39 / 0.45 = 86.7 -> 87; protocol or reliability 100: 34 / 0.4 = 85; docs 100: 29 / 0.35 = 82.9 -> 83.
    // Security alone at 100 is still one dimension: no composite, so it is not listed.
    expect(scoreRaisersOf(score, ATLAS_SCORE_SCOPE).map((r) => [r.key, r.points])).toEqual([
      ['schemaQuality', 87],
      ['protocol', 85],
      ['reliability', 85],
      ['docsMaintenance', 83],
    ]);
  });
});

describe('compareScoredServers', () => {
  it('orders by tier, then composite, then id; a missing score is unscored', () => {
    const rows = [
      { id: 'b', score: null },
      { id: 'a', score: { visibilityLevel: 'unscored' as const, compositeScore: null } },
      { id: 'c', score: { visibilityLevel: 'limited' as const, compositeScore: 99 } },
      { id: 'd', score: { visibilityLevel: 'verified' as const, compositeScore: 50 } },
      { id: 'e', score: { visibilityLevel: 'verified' as const, compositeScore: 70 } },
      { id: 'f', score: { visibilityLevel: 'verified' as const, compositeScore: 70 } },
    ];
    expect(rows.sort(compareScoredServers).map((r) => r.id)).toEqual(['e', 'f', 'd', 'c', 'a', 'b']);
  });
});

describe('scoreFreshnessOf', () => {
  it('dates a score at its day’s last second and ages it in whole days', () => {
    // 2026-12-01T23:59:59Z to 2026-12-04T23:59:58Z is 2 days 23:59:59, so 2; one second later it is 3.
    expect(scoreFreshnessOf('2026-12-01', new Date('2026-12-04T23:59:58Z'))).toEqual({
      last_scored_at: '2026-12-01T23:59:59Z',
      score_age_days: 2,
    });
    expect(scoreFreshnessOf('2026-12-01', new Date('2026-12-04T23:59:59Z')).score_age_days).toBe(3);
    // The next morning, the day's score is 0 days old; before its day ends (a view of an earlier instant), also 0.
    expect(scoreFreshnessOf('2026-12-01', new Date('2026-12-02T08:00:00Z')).score_age_days).toBe(0);
    expect(scoreFreshnessOf('2026-12-01', new Date('2026-12-01T08:00:00Z')).score_age_days).toBe(0);
  });

  it('is null for a server not scored yet', () => {
    expect(scoreFreshnessOf(null, new Date('2026-12-04T00:00:00Z'))).toEqual({
      last_scored_at: null,
      score_age_days: null,
    });
  });
});

/** notes-hub's uptime windows in the view day's file. */
const NOTES_UPTIME = {
  last24h: { uptimePct: 100, checks: 25 },
  last7d: { uptimePct: 96, checks: 175 },
  last30d: { uptimePct: 90, checks: 750 },
};

// The fixture's six servers get one tier each (odd-endpoint none at all); notes-hub also has an older day.
const SCORES = [
  handScore('weather-desk', 'complete', 70, { dimensionsScored: 6, dimensionsApplicable: 6 }),
  { ...handScore('notes-hub', 'verified', 80), uptime: NOTES_UPTIME },
  handScore('ticket-yard', 'verified', 90),
  handScore('locked-crm', 'assessed', 60),
  handScore('ledger-pay', 'limited', 55, { flags: [STAGING_FLAG], dimensionsScored: 3 }),
];
const EXPECTED_ORDER = ['weather-desk', 'ticket-yard', 'notes-hub', 'locked-crm', 'ledger-pay', 'odd-endpoint'];

let f: RunningFixture;
let doc: any;
beforeAll(async () => {
  const { storage, keys } = await writeFixture(createMemoryStorage(), 0, async (store) => {
    await writeScores(store, '2026-11-29', [handScore('notes-hub', 'verified', 92)]);
    await writeScores(store, VIEW_DAY, SCORES);
  });
  f = await startFixture({ storage, keys });
  doc = (await getJsonAt(`${f.base}/api/openapi.json`)).body;
});
afterAll(async () => {
  await f.close();
});

const validator = new AjvJsonSchemaValidator();

function expectDocumented(path: string, status: number, body: unknown): void {
  const schema = doc.paths[path]?.get?.responses?.[String(status)]?.content?.['application/json']?.schema;
  expect(schema, `GET ${path} documents ${status}`).toBeDefined();
  const check = validator.getValidator({ allOf: [schema], components: doc.components } as never)(body);
  expect(check.errorMessage ?? 'valid').toBe('valid');
}

describe('GET /api/leaderboard', () => {
  it('orders every server on the map by tier, then composite, then id, with the grade as "A (5/5)"', async () => {
    const { status, body } = await getJsonAt(`${f.base}/api/leaderboard`);
    expect(status).toBe(200);
    expect(body.servers.map((r: any) => r.id)).toEqual(EXPECTED_ORDER);
    expect(body.servers.map((r: any) => r.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(body).toMatchObject({ day: VIEW_DAY, total: 6, offset: 0, limit: 100 });
    expect(body.servers[0]).toMatchObject({
      grade: 'B',
      gradeLabel: 'B (6/6)',
      compositeScore: 70,
      visibilityLevel: 'complete',
      scoredDay: VIEW_DAY,
      // The fixture's clock is the next morning: the score is 0 days old.
      last_scored_at: `${VIEW_DAY}T23:59:59Z`,
      score_age_days: 0,
    });
    expect(body.servers[1]).toMatchObject({ grade: 'A', gradeLabel: 'A (5/5)', visibilityLevel: 'verified' });
    expect(body.servers[4]).toMatchObject({
      gradeLabel: 'C (3/5)',
      flags: [{ key: 'STAGING_ARTIFACT', severity: 'warning', label: 'Staging Endpoint' }],
    });
    expect(body.servers[5]).toMatchObject({
      id: 'odd-endpoint',
      grade: '',
      gradeLabel: 'not scored yet',
      compositeScore: null,
      visibilityLevel: 'unscored',
      scoredDay: null,
      last_scored_at: null,
      score_age_days: null,
    });
    expectDocumented('/api/leaderboard', 200, body);
  });

  it('gives a page with limit and offset, ranks kept', async () => {
    const { body } = await getJsonAt(`${f.base}/api/leaderboard?limit=2&offset=1`);
    expect(body.servers.map((r: any) => [r.rank, r.id])).toEqual([
      [2, 'ticket-yard'],
      [3, 'notes-hub'],
    ]);
    expect(body).toMatchObject({ total: 6, offset: 1, limit: 2 });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=1e3', 'limit'],
    ['offset=-1', 'offset'],
    ['sort=grade', 'sort'],
    ['limit=1&limit=2', 'limit'],
  ])('refuses %s with a 400 that names the parameter', async (query, name) => {
    const { status, body } = await getJsonAt(`${f.base}/api/leaderboard?${query}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_query');
    expect(body.error.message).toContain(name);
    expectDocumented('/api/leaderboard', 400, body);
  });
});

describe('GET /api/servers/:id', () => {
  it('carries the whole newest score, without its server id, and the day it was measured', async () => {
    const { status, body } = await getJsonAt(`${f.base}/api/servers/notes-hub`);
    expect(status).toBe(200);
    const { serverId: _id, ...expected } = handScore('notes-hub', 'verified', 80);
    expect(body.score).toEqual(expected);
    expect(body.scoredDay).toBe(VIEW_DAY);
    expect(body).toMatchObject({
      last_scored_at: `${VIEW_DAY}T23:59:59Z`,
      score_age_days: 0,
      scoreUptime: NOTES_UPTIME,
    });
    expectDocumented('/api/servers/{id}', 200, body);
  });

  it('has no uptime windows for a score written before they were kept', async () => {
    const { body } = await getJsonAt(`${f.base}/api/servers/ticket-yard`);
    expect(body.score).not.toBeNull();
    expect(body.scoreUptime).toBeNull();
  });

  it('names the scoring version in a header of every API answer, readable from other pages', async () => {
    for (const path of ['/api/servers/notes-hub', '/api/leaderboard', '/api/servers', '/api/servers/nobody-here']) {
      const response = await fetch(`${f.base}${path}`, { headers: { Origin: 'https://elsewhere.example' } });
      expect(response.headers.get(SCORING_VERSION_HEADER), path).toBe(METHODOLOGY_VERSION);
      expect(response.headers.get('access-control-expose-headers'), path).toContain(SCORING_VERSION_HEADER);
    }
    expect(doc.paths['/api/servers/{id}'].get.responses['200'].headers[SCORING_VERSION_HEADER]).toBeDefined();
    expect(doc.paths['/api/leaderboard'].get.responses['400'].headers[SCORING_VERSION_HEADER]).toBeDefined();
  });

  it('says null for a server that has not been scored', async () => {
    const { body } = await getJsonAt(`${f.base}/api/servers/odd-endpoint`);
    expect(body.score).toBeNull();
    expect(body.scoredDay).toBeNull();
    expect(body).toMatchObject({ last_scored_at: null, score_age_days: null, scoreUptime: null });
    expectDocumented('/api/servers/{id}', 200, body);
  });
});
