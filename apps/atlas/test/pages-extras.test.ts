// The parts of a server page other jobs feed: a verified owner's note (shown as the owner's words, escaped
// like any untrusted text), the submission date, the domain's age from RDAP, and the packages the server
// ships with their known vulnerabilities. Written as those jobs write their files, read through buildView.
import { rdapDomainOf } from '@mcp-atlas/probe/outside';
import { ROUTE_SCORE_RULES } from '@mcp-atlas/route/rules';
import { describe, expect, it } from 'vitest';
import { DOMAIN_AGES_PATH, dayPackagesPath, SERVERS_PATH } from '../src/data/paths.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { writeOwnerRecord } from '../src/owners/owner-records.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import { appOver, getPage, writeHandObservatory } from './pages-fixtures.js';

const DAY = '2026-11-29';
const NOW = new Date('2026-11-30T08:00:00Z');
const TODAY = '2026-11-30';
const URL_OF = (id: string) => `https://${id}.example.test/mcp`;

async function observatory(): Promise<Storage> {
  const storage = await writeHandObservatory(DAY, [
    {
      id: 'owned',
      title: 'Owned server',
      letters: 'o'.repeat(20),
      tools: [{ name: 'list_items', description: 'Lists items.', annotations: { readOnlyHint: true } }],
    },
    {
      id: 'plain',
      title: 'Plain server',
      url: 'https://mcp.plain-elsewhere.test/mcp',
      letters: 'o'.repeat(20),
      tools: [],
    },
  ]);
  await putJson(storage, SERVERS_PATH, {
    servers: [
      {
        id: 'owned',
        url: URL_OF('owned'),
        title: 'Owned server',
        source: 'submitted',
        submittedAt: '2026-11-10T09:30:00.000Z',
      },
      { id: 'plain', url: 'https://mcp.plain-elsewhere.test/mcp', title: 'Plain server', source: 'registry' },
    ],
  });
  await writeOwnerRecord(storage, {
    server: 'owned',
    origin: new URL(URL_OF('owned')).origin,
    verifiedAt: '2026-11-20T10:00:00.000Z',
    note: {
      text: 'We deploy every night at 02:00 UTC. <script>alert(1)</script> & "quotes"',
      setAt: '2026-11-21T11:00:00.000Z',
    },
    fiveMinuteChecks: true,
  });
  const domain = rdapDomainOf(new URL(URL_OF('owned')).hostname)!;
  await putJson(storage, DOMAIN_AGES_PATH, {
    lastScanDay: DAY,
    domains: {
      [domain]: {
        domain,
        lookedUpDay: DAY,
        lookedUpAt: '2026-11-29T06:00:00.000Z',
        registeredAt: '2026-10-01T00:00:00.000Z',
        problem: null,
        rdapUrl: 'https://rdap.example.test/domain/x',
      },
    },
    waiting: [],
  });
  await putJson(storage, dayPackagesPath(TODAY), {
    day: TODAY,
    methodologyVersion: METHODOLOGY_VERSION,
    readAt: '2026-11-30T03:00:00.000Z',
    packages: [
      {
        ecosystem: 'npm',
        name: 'owned-mcp',
        servers: ['owned'],
        version: '1.4.2',
        problem: null,
        vulnerabilities: ['GHSA-aaaa-bbbb-cccc', 'GHSA-dddd-eeee-ffff'],
        truncated: false,
      },
      {
        ecosystem: 'PyPI',
        name: 'owned-tools',
        servers: ['owned'],
        version: '0.9.0',
        problem: null,
        vulnerabilities: [],
        truncated: false,
      },
    ],
    osv: { checkedAt: '2026-11-30T04:05:30.000Z', ok: true, problem: null, attempts: 1 },
  });
  return storage;
}

describe('what other jobs add to a server page', () => {
  it('shows the owner’s note as the owner’s words, escaped, with when it was set', async () => {
    const { app } = await appOver(await observatory(), NOW);
    const page = (await getPage(app, '/servers/owned')).text;
    expect(page).toContain('data-owner-note');
    expect(page).toContain('The owner’s note, in their own words (not checked or endorsed by mcp-atlas)');
    expect(page).toContain(
      '<blockquote><p>We deploy every night at 02:00 UTC. &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</p></blockquote>',
    );
    expect(page).not.toContain('<script>');
    expect(page).toContain('They asked for five-minute checks.');
  });

  it('shows the submission date and the domain’s age, marked young under the route’s threshold', async () => {
    const { app } = await appOver(await observatory(), NOW);
    const text = (await getPage(app, '/servers/owned')).text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Submitted by its owner on 2026-11-10 .');
    // Registered 2026-10-01, today 2026-11-30: 60 days, under 90.
    expect(ROUTE_SCORE_RULES.youngDomainDays).toBe(90);
    expect(text).toContain('registered 2026-10-01, 60 days ago (younger than 90 days)');
  });

  it('lists the packages it ships with their known vulnerabilities', async () => {
    const { app } = await appOver(await observatory(), NOW);
    const page = (await getPage(app, '/servers/owned')).text;
    expect(page).toContain('data-package="npm/owned-mcp"');
    expect(page).toContain('<code>GHSA-aaaa-bbbb-cccc</code>');
    expect(page).toContain('2 known vulnerabilities');
    expect(page).toMatch(/data-package="PyPI\/owned-tools">.*?none known/);
  });

  it('shows none of these parts for a server without them', async () => {
    const { app } = await appOver(await observatory(), NOW);
    const page = (await getPage(app, '/servers/plain')).text;
    const markers = ['data-owner', 'data-submitted', 'data-domain-age', 'data-packages'];
    expect(markers.filter((marker) => page.includes(marker))).toEqual([]);
  });
});
