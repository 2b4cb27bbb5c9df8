// Prose that repeats a rule's number is built from the constant that holds it. Two kinds of check: the served
// text (the OpenAPI document, its schema descriptions and the MCP tool list, read from a running app) carries
// each constant's current value, and a scan of the prose source files finds no rule number written by hand
// next to its unit.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OWNER_NOTE_RULES } from '@mcp-atlas/operations/rules';
import { DEEP_CHECK_RULES, OUTSIDE_SERVICE_RULES, SESSION_RULES } from '@mcp-atlas/probe/rules';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OSV_CHECK_TIME_UTC } from '../src/outside/outside-config.js';
import { formatCount, formatFactor, formatPercent, formatTimeOfDay } from '../src/pages/format.js';
import { SERVERS_PER_PAGE } from '../src/pages/servers-page.js';
import { getJsonAt, type RunningFixture, startFixture } from './fixtures/http-atlas.js';
import { reliability, route } from './fixtures/rule-names.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** The files whose strings and JSX text are read by people or agents as descriptions of our rules. */
function proseFiles(): string[] {
  const pages = readdirSync(join(SRC, 'pages'))
    .filter((name) => name.endsWith('.tsx') || name === 'openapi-paths.ts')
    .map((name) => join('pages', name));
  return ['http/mcp.ts', 'http/openapi.ts', 'http/schemas.ts', 'http/rule-text.ts', ...pages];
}

/** Source text without comments and import lines: what is left is code, strings and JSX text. */
function withoutCommentsAndImports(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s\/\/\s.*$/gm, '')
    .replace(/^import[\s\S]*?from\s+'[^']+';$/gm, '');
}

/** Every number a rule constant of the packages holds (and the app's own published limits), as written in prose. */
function ruleNumbers(): string[] {
  const values = new Set<number>();
  const collect = (value: unknown) => {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 2) values.add(value);
    else if (value !== null && typeof value === 'object')
      for (const inner of Object.values(value)) if (typeof inner === 'number') collect(inner);
  };
  for (const module of [reliability, route]) for (const value of Object.values(module)) collect(value);
  for (const value of [
    DEEP_CHECK_RULES.authDiscoveryBonus,
    DEEP_CHECK_RULES.maxTools,
    DEEP_CHECK_RULES.callTimeoutMs,
    DEEP_CHECK_RULES.fuzzOversizedChars,
    OUTSIDE_SERVICE_RULES.osvTimeoutMs,
    SESSION_RULES.maxToolsKept,
    SESSION_RULES.maxToolsPages,
  ]) {
    collect(value);
  }
  collect(OWNER_NOTE_RULES.maxCharacters);
  const written = new Set<string>();
  for (const value of values) {
    written.add(String(value));
    written.add(formatCount(value));
  }
  // Longest first, so 20,000 is matched whole rather than as its tail.
  return [...written].sort((a, b) => b.length - a.length);
}

/** Non-whole factors and weights of the rules (guards, directory factor, paid weight), as prose writes them. */
function ruleFactors(): string[] {
  const factors = new Set<string>();
  for (const module of [reliability, route]) {
    for (const value of Object.values(module))
      if (typeof value === 'number' && !Number.isInteger(value) && value > 0 && value < 10)
        factors.add(formatFactor(value));
  }
  // A whole weight that prose writes as a factor ("a paid weight of 1.0").
  factors.add(formatFactor(reliability.VISIBLE_MIN_PAID_WEIGHT));
  return [...factors];
}

const UNITS = String.raw`(?:%|-?\s*(?:hours?|days?|checks?|(?:new )?lookups?|seconds?|minutes?|weeks?|reports?|reporters?|outcomes?|characters?|decimals?|daily letters?|reads?|times)\b|\s+a\s+(?:day|page|UTC day)\b|\s+per\s)`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The hand-written rule numbers found in a source text: a rule number next to a unit, a limit in a "per x: n" list, or a rule factor. */
function findHandWrittenRules(source: string): string[] {
  const text = withoutCommentsAndImports(source);
  const numbers = new RegExp(String.raw`(?<![\w.,$])(?:${ruleNumbers().map(escapeRegExp).join('|')})${UNITS}`, 'gi');
  const perList = /\bper (?:network|host|reporter|server|scan|day)\s*:\s*\d/gi;
  // A time of day or a network prefix written out is a rule's number too (the OSV check time, reporter networks).
  const fixedForms = /\b\d{1,2}:\d{2}\s*UTC\b|\bIPv[46]\s*\/\d/g;
  const factors = new RegExp(String.raw`(?<![\w.$])(?:${ruleFactors().map(escapeRegExp).join('|')})(?![\d.])`, 'g');
  // Factors only count inside quoted or JSX text, not in code arithmetic: look at string-like spans only.
  const strings = [...text.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`|>[^<>{}]*</g)]
    .map((m) => m[0])
    .join('\n');
  return [
    ...text.matchAll(numbers),
    ...text.matchAll(perList),
    ...text.matchAll(fixedForms),
    ...strings.matchAll(factors),
  ].map((m) => m[0]);
}

describe('the rule formatters', () => {
  it('write percents, factors and times of day one way', () => {
    expect(formatPercent(90)).toBe('90%');
    expect(formatPercent(10)).toBe('10%');
    expect(formatFactor(0.8)).toBe('0.8');
    expect(formatFactor(1)).toBe('1.0');
    expect(formatFactor(1.15)).toBe('1.15');
    expect(formatTimeOfDay({ hour: 4, minute: 5 })).toBe('04:05 UTC');
    expect(formatTimeOfDay({ hour: 13, minute: 30 })).toBe('13:30 UTC');
  });
});

describe('the scan for hand-written rule numbers', () => {
  it('finds the kinds of text it must refuse', () => {
    const found = findHandWrittenRules(
      [
        "const a = 'checked every 6 hours for 7 days and joins the map with at least 20 checks, 90% answered';",
        "const b = 'at most 40 new lookups a day; null when not looked up in the last 30 days';",
        'const c = <dd>over 90 days</dd>;',
        "const d = 'A daily limit (per network: 20, per host: 10).';",
        "const e = 'the route lowers its guard to 0.8; a paid weight of 1.0; 20,000 outcomes a UTC day';",
        "const f = 'The 90-day five-minute figure; Up to 30 daily letters; at most 280 characters';",
        "const g = 'That day\\'s OSV check (04:05 UTC); known by its network (IPv4 /24, IPv6 /48)';",
      ].join('\n'),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        '6 hours',
        '7 days',
        '20 checks',
        '90%',
        '40 new lookups',
        '30 days',
        '90 days',
        'per network: 2',
        '0.8',
        '1.0',
        '20,000 outcomes',
        '90-day',
        '30 daily letters',
        '280 characters',
        '04:05 UTC',
        'IPv4 /2',
        'IPv6 /4',
      ]),
    );
  });

  it('leaves comments, imports and code arithmetic alone', () => {
    const found = findHandWrittenRules(
      [
        '// checked every 6 hours for 7 days',
        "import { X } from './a-90-days.js';",
        '/** 30 days */',
        'const x = slot * 0.7;',
        "const y = 'https://example.test/30'",
      ].join('\n'),
    );
    expect(found).toEqual([]);
  });

  it.each(proseFiles())('finds no rule number written by hand in src/%s', (file) => {
    expect(findHandWrittenRules(readFileSync(join(SRC, file), 'utf8'))).toEqual([]);
  });
});

describe('the served text carries the constants’ values', () => {
  let f: RunningFixture;
  let doc: any;
  let client: Client;
  beforeAll(async () => {
    f = await startFixture();
    doc = (await getJsonAt(`${f.base}/api/openapi.json`)).body;
    client = new Client({ name: 'rule-prose-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${f.base}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await f?.close();
  });

  const r = reliability;
  const submissionTexts = () => [
    `every ${r.SUBMISSION_CHECK_INTERVAL_HOURS} hours for ${r.SUBMISSION_WINDOW_DAYS} days`,
    `at least ${r.SUBMISSION_MIN_CHECKS} checks, ${formatPercent(r.SUBMISSION_ADMIT_PERCENT)} of them answered`,
    `${formatPercent(r.SUBMISSION_EXTEND_PERCENT)} to under ${formatPercent(r.SUBMISSION_ADMIT_PERCENT)} answered`,
    `at most ${r.SUBMISSION_MAX_TOOL_LIST_CHANGES} tool-list change`,
  ];

  it('the submit_mcp_server tool describes the admission rule from the constants', async () => {
    const { tools } = await client.listTools();
    const description = tools.find((t) => t.name === 'submit_mcp_server')!.description!;
    for (const text of submissionTexts()) expect(description).toContain(text);
  });

  it('POST /api/submissions documents the rule, the limits, and the 403, 429 and 503 codes', () => {
    const op = doc.paths['/api/submissions'].post;
    for (const text of submissionTexts().slice(1)) expect(op.description).toContain(text);
    expect(op.summary).toContain(submissionTexts()[0]);
    expect(op.description).toContain(`${r.SUBMISSIONS_PER_REQUESTER_PER_DAY} a UTC day per network`);
    expect(op.description).toContain(`${r.SUBMISSIONS_PER_HOST_PER_DAY} a UTC day per host`);
    expect(op.responses['403'].description).toContain('`token_not_found`');
    // The operation's own 403 and the foreign-Origin 403 are joined into one sentence.
    expect(op.responses['403'].description).toContain(
      '(`token_not_found`); nothing was stored; or a browser sent it from another site',
    );
    for (const path of ['/api/optout/confirm', '/api/owners/verify', '/api/owners/settings']) {
      expect(doc.paths[path].post.responses['403'].description).toMatch(
        /\(`token_not_found`\); or a browser sent it from another site/,
      );
    }
    expect(op.responses['503'].description).toContain('`owner_checks_unavailable`');
    expect(op.responses['429'].description).toContain('`host_daily_limit`');
    expect(op.responses['429'].description).toContain('`requester_host_failure_limit`');
  });

  it.each(['/api/optout/confirm', '/api/owners/verify', '/api/owners/settings'])(
    '%s documents both token-file limits by code',
    (path) => {
      const text = doc.paths[path].post.responses['429'].description as string;
      expect(text).toContain(
        `\`requester_daily_limit\` when this network already caused ${r.OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY} reads`,
      );
      expect(text).toContain(
        `\`requester_host_failure_limit\` when ${r.OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY} reads`,
      );
      expect(text).toContain(`failed ${r.OWNERSHIP_FAILURES_PER_HOST_PER_DAY} times in a day`);
    },
  );

  it('the report, sensor, owner and list routes repeat their limits from the constants', () => {
    const reports = doc.paths['/api/reports'].post;
    expect(reports.description).toContain(`IPv4 /${r.IPV4_REPORTER_PREFIX_BITS}, IPv6 /${r.IPV6_REPORTER_PREFIX_BITS}`);
    expect(reports.description).toContain(
      `${r.REPORTS_PER_REPORTER_PER_DAY} reports a day per reporter, ${r.REPORTS_PER_REPORTER_PER_SERVER_PER_DAY} per server`,
    );
    const sensors = doc.paths['/api/sensors'].post;
    expect(sensors.summary).toContain(`up to ${r.SENSOR_OUTCOMES_PER_BATCH} call outcomes`);
    expect(sensors.description).toContain(`older than ${r.SENSOR_OUTCOME_MAX_AGE_HOURS} hours`);
    expect(sensors.description).toContain(`${formatCount(r.SENSOR_OUTCOMES_PER_DAY)} outcomes a UTC day`);
    expect(doc.paths['/api/owners/settings'].post.description).toContain(
      `at most ${OWNER_NOTE_RULES.maxCharacters} characters`,
    );
    expect(doc.paths['/api/servers'].get.summary).toContain(`${r.LETTER_WINDOW_DAYS} daily letters`);
    expect(doc.paths['/api/servers/{id}'].get.summary).toContain(`the last ${r.CHANGE_DAYS_KEPT} days`);
    const limitOf = (path: string) => doc.paths[path].get.parameters.find((p: any) => p.name === 'limit').description;
    expect(limitOf('/api/toolsearch')).toBe(
      `Results, 1 to ${route.MAX_RESULT_LIMIT} (default ${route.DEFAULT_SEARCH_LIMIT}).`,
    );
    expect(limitOf('/api/route')).toBe(`Picks, 1 to ${route.MAX_RESULT_LIMIT} (default ${route.DEFAULT_ROUTE_LIMIT}).`);
    expect(limitOf('/search')).toBe(limitOf('/api/toolsearch'));
    expect(doc.paths['/servers'].get.summary).toContain(`${SERVERS_PER_PAGE} a page`);
    expect(doc.paths['/reliable'].get.summary).toContain(`top-${formatPercent(100 / r.TOP_PLACES_DIVISOR)}`);
  });

  it('the schema descriptions of a server repeat their windows, thresholds and factors from the constants', () => {
    const detail = doc.components.schemas.ServerDetail.properties;
    const summary = doc.components.schemas.ServerSummary.properties;
    const textOf = (value: any): string => JSON.stringify(value);
    expect(summary.letters.description).toContain(`Up to ${r.LETTER_WINDOW_DAYS} daily letters`);
    expect(textOf(summary.uptime)).toContain(`Percent with ${r.UPTIME_DECIMALS} decimal`);
    expect(textOf(summary.uptime)).toContain(r.THIRTY_DAY_UPTIME_LABEL);
    expect(textOf(summary.uptime)).toContain(`The ${r.FIVE_MINUTE_LONG_WINDOW_DAYS}-day five-minute figure`);
    expect(detail.changes.description).toContain(`the last ${r.CHANGE_DAYS_KEPT} days`);
    expect(detail.incident.description).toContain(`the last ${r.INCIDENT_WINDOW_HOURS} hours`);
    expect(detail.rating.description).toContain(
      `${r.VISIBLE_MIN_REPORTERS} distinct reporters and a paid weight of ${formatFactor(r.VISIBLE_MIN_PAID_WEIGHT)}`,
    );
    expect(textOf(detail.submittedAt)).toContain(`new for ${route.NEW_SERVER_DAYS} days`);
    const domainAge = textOf(detail.domainAge) + textOf(doc.components.schemas);
    expect(domainAge).toContain(`at most ${r.DOMAIN_AGE_LOOKUPS_PER_SCAN} new lookups per scan`);
    expect(domainAge).toContain(`the last ${r.DOMAIN_AGE_KEEP_DAYS} days`);
    expect(domainAge).toContain(
      `Younger than ${route.YOUNG_DOMAIN_DAYS} days: the route lowers its guard to ${formatFactor(route.GUARD_NEW)}`,
    );
    expect(textOf(doc.components.schemas)).toContain(`OSV check (${formatTimeOfDay(OSV_CHECK_TIME_UTC)})`);
  });
});
