import { describe, expect, it } from 'vitest';
import type { BadgeInput } from '../src/badges.js';
import { generateBadges } from '../src/badges.js';
import type { DeepProbe, ReliabilityInput, ScoreServer, StaticAnalysis } from '../src/types.js';

const server: ScoreServer = {
  name: 'acme/widgets',
  description: 'Widget search for Acme stores.',
  repoUrl: 'https://github.com/acme/widgets',
  registryId: '',
  remoteEndpointUrl: 'https://mcp.acme.dev/mcp',
  isRemote: true,
  hasSandboxProbe: false,
  registryMetadata: {},
  npmUrl: '',
  pypiUrl: '',
  dockerhubUrl: '',
  lastCommitAt: null,
};

function staticWith(details: Record<string, unknown>): StaticAnalysis {
  return {
    schemaCompleteness: 50,
    descriptionQuality: 50,
    documentationCoverage: 50,
    maintenancePulse: 50,
    dependencyHealth: 50,
    licenseClarity: 50,
    versionHygiene: 50,
    details,
  };
}

function badges(partial: Partial<BadgeInput>) {
  return generateBadges({ server, staticAnalysis: null, deepProbe: null, reliability: null, flags: [], ...partial });
}
const keys = (list: { key: string }[]) => list.map((b) => b.key);

describe('generateBadges', () => {
  it('always has the five groups, in order', () => {
    expect(Object.keys(badges({}))).toEqual(['schema', 'protocol', 'reliability', 'maintenance', 'security']);
  });

  describe('schema', () => {
    it('shows README, or No README only when the documentation checks ran', () => {
      const doc = (checks: unknown) =>
        keys(badges({ staticAnalysis: staticWith({ documentation_coverage: { checks } }) }).schema);
      expect(doc({ has_readme: true })).toEqual(['has_readme']);
      expect(doc({ has_readme: false })).toEqual(['no_readme']);
      expect(doc({})).toEqual([]);
      expect(doc('yes')).toEqual([]);
    });

    it('reads namespace_owner_match as true, false or unknown', () => {
      const prov = (value: unknown) =>
        keys(
          badges({ staticAnalysis: staticWith({ provenance: { checks: { namespace_owner_match: value } } }) }).schema,
        );
      expect(prov(true)).toEqual(['namespace_match']);
      expect(prov(false)).toEqual(['namespace_mismatch']);
      expect(prov(null)).toEqual([]);
      expect(prov(1)).toEqual([]);
    });

    it('adds the template description badge from the flag, even without an analysis', () => {
      expect(badges({ flags: [{ key: 'TEMPLATE_DESCRIPTION' }] }).schema).toEqual([
        { key: 'template_desc', label: 'Template Description', level: 'warning' },
      ]);
    });
  });

  describe('protocol', () => {
    const probe = (p: Partial<DeepProbe>) => badges({ deepProbe: { isReachable: true, ...p } }).protocol;

    it('is empty without a deep probe', () => {
      expect(badges({}).protocol).toEqual([]);
    });

    it('labels the tool count and skips 0 tools', () => {
      expect(probe({ toolsCount: 7 })).toContainEqual({ key: 'has_tools', label: '7 Tools', level: 'good' });
      expect(keys(probe({ toolsCount: 0 }))).toEqual(['reachable']);
      expect(keys(badges({ deepProbe: { isReachable: false } }).protocol)).toEqual(['unreachable']);
    });

    it('marks error handling good from 70 and poor below 40', () => {
      expect(keys(probe({ errorHandlingScore: 70 }))).toContain('good_errors');
      expect(keys(probe({ errorHandlingScore: 69 }))).toEqual(['reachable']);
      expect(keys(probe({ errorHandlingScore: 40 }))).toEqual(['reachable']);
      expect(keys(probe({ errorHandlingScore: 39 }))).toContain('poor_errors');
    });
  });

  describe('reliability', () => {
    const rel = (r: Partial<ReliabilityInput>) =>
      keys(
        badges({ reliability: { uptimePct: null, latencyP50Ms: null, latencyP95Ms: null, probeCount: 1, ...r } })
          .reliability,
      );

    it('steps uptime at 99, 95 and 80, even when the probe count gates the score', () => {
      expect(rel({ uptimePct: 99 })).toEqual(['high_uptime']);
      expect(rel({ uptimePct: 98.99 })).toEqual(['good_uptime']);
      expect(rel({ uptimePct: 95 })).toEqual(['good_uptime']);
      expect(rel({ uptimePct: 94.99 })).toEqual(['degraded_uptime']);
      expect(rel({ uptimePct: 80 })).toEqual(['degraded_uptime']);
      expect(rel({ uptimePct: 79.99 })).toEqual(['low_uptime']);
    });

    it('steps p50 latency at 200, 500 and 1000 ms', () => {
      expect(rel({ latencyP50Ms: 199 })).toEqual(['low_latency']);
      expect(rel({ latencyP50Ms: 200 })).toEqual(['med_latency']);
      expect(rel({ latencyP50Ms: 499 })).toEqual(['med_latency']);
      expect(rel({ latencyP50Ms: 500 })).toEqual(['high_latency']);
      expect(rel({ latencyP50Ms: 999 })).toEqual(['high_latency']);
      expect(rel({ latencyP50Ms: 1000 })).toEqual(['very_high_latency']);
    });

    it('adds Local Only for a local server', () => {
      expect(keys(badges({ server: { ...server, isRemote: false } }).reliability)).toEqual(['local_only']);
    });
  });

  describe('maintenance', () => {
    const maint = (details: Record<string, unknown>) =>
      keys(badges({ staticAnalysis: staticWith(details) }).maintenance);

    it('steps activity at 30, 180 and 365 days', () => {
      const at = (days: number) => maint({ maintenance_pulse: { days_since_last_push: days } });
      expect(at(30)).toEqual(['active']);
      expect(at(31)).toEqual(['moderate']);
      expect(at(180)).toEqual(['moderate']);
      expect(at(181)).toEqual(['stale']);
      expect(at(365)).toEqual(['stale']);
      expect(at(366)).toEqual(['abandoned']);
    });

    it('steps releases at 3 and 1', () => {
      const at = (release_count: number) => maint({ maintenance_pulse: { release_count } });
      expect(at(3)).toEqual(['regular_releases']);
      expect(at(2)).toEqual(['has_releases']);
      expect(at(1)).toEqual(['has_releases']);
      expect(at(0)).toEqual([]);
    });

    it('labels the licence with its SPDX id, but not NOASSERTION', () => {
      expect(
        badges({ staticAnalysis: staticWith({ license_clarity: { spdx_id: 'Apache-2.0' } }) }).maintenance,
      ).toEqual([{ key: 'licensed', label: 'Apache-2.0', level: 'good' }]);
      expect(maint({ license_clarity: { spdx_id: 'NOASSERTION' } })).toEqual([]);
      expect(maint({ license_clarity: { issue: 'no_license_detected' } })).toEqual(['no_license']);
    });

    it('shows Semver from a 0.8 ratio', () => {
      expect(maint({ version_hygiene: { semver_ratio: 0.8 } })).toEqual(['semver']);
      expect(maint({ version_hygiene: { semver_ratio: 0.79 } })).toEqual([]);
    });

    it('never throws on odd shapes', () => {
      expect(
        maint({ maintenance_pulse: 'recent', dependency_health: [], license_clarity: null, version_hygiene: 5 }),
      ).toEqual([]);
    });
  });

  describe('security', () => {
    const sec = (registryMetadata: Record<string, unknown>, s: Partial<ScoreServer> = {}) =>
      badges({ server: { ...server, registryMetadata, ...s } }).security;

    it('counts secrets: none good, one or two neutral, three or more warning', () => {
      expect(sec({})[0]).toEqual({ key: 'no_secrets', label: 'No Secrets Required', level: 'good' });
      expect(sec({ env_vars: ['A_TOKEN'] })[0]).toEqual({ key: 'few_secrets', label: '1 Secret(s)', level: 'neutral' });
      expect(sec({ env_vars: ['A_TOKEN', { name: 'LOGIN', isSecret: true }] })[0]).toEqual({
        key: 'few_secrets',
        label: '2 Secret(s)',
        level: 'neutral',
      });
      expect(sec({ env_vars: ['A_TOKEN', 'B_SECRET', 'C_PASSWORD'] })[0]).toEqual({
        key: 'many_secrets',
        label: '3 Secrets',
        level: 'warning',
      });
    });

    it('shows the transport and a published package', () => {
      expect(keys(sec({}))).toEqual(['no_secrets', 'remote']);
      expect(keys(sec({}, { isRemote: false, pypiUrl: 'https://pypi.org/project/x/' }))).toEqual([
        'no_secrets',
        'stdio',
        'published',
      ]);
    });
  });
});
