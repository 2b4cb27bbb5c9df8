// The five repository sub-scores: hand-computed cases at and around every threshold, then whole
// repositories whose expected answers come from running the engine 0.9.0's own functions.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  analyzeRepository,
  COMMIT_BONUS,
  DOCUMENTATION_CAP,
  DOCUMENTATION_POINTS,
  dependencyHealth,
  documentationChecks,
  hasText,
  issuePoints,
  KNOWN_LICENSES,
  licenseClarity,
  maintenancePulse,
  PROVENANCE_CAP,
  PUSH_RECENCY_VITALITY,
  provenanceSignals,
  registryNamespace,
  roundToHundredths,
  SEMVER_PATTERN,
  STABILITY_FLOOR,
  staticAnalysisOf,
  versionHygiene,
  wholeDaysBetween,
} from '../src/repository-analysis.js';
import type { RepositoryFacts, RepositoryRelease } from '../src/types.js';

const NOW = '2026-12-02T12:00:00Z';
const NOW_MS = Date.parse(NOW);
const DAY = 86_400_000;

function facts(over: Partial<RepositoryFacts> = {}): RepositoryFacts {
  return {
    fullName: 'acme/server',
    defaultBranch: 'main',
    archived: false,
    pushedAt: null,
    stars: 0,
    forks: 0,
    openIssues: 0,
    license: null,
    paths: [],
    treeTruncated: false,
    recentCommits: 0,
    releases: [],
    tags: [],
    ...over,
  };
}

function daysAgo(days: number, extraMs = 0): string {
  return new Date(NOW_MS - days * DAY - extraMs).toISOString();
}

function release(tagName: string, over: Partial<RepositoryRelease> = {}): RepositoryRelease {
  return { tagName, publishedAt: null, body: '', prerelease: false, ...over };
}

function pulse(over: Partial<RepositoryFacts>): { score: number; details: Record<string, unknown> } {
  return maintenancePulse(facts(over), NOW_MS);
}

describe('time helpers', () => {
  it('counts whole days rounded down, negative for the future (Python timedelta.days)', () => {
    expect(wholeDaysBetween(NOW_MS - 30 * DAY, NOW_MS)).toBe(30);
    expect(wholeDaysBetween(NOW_MS - 30 * DAY - 1, NOW_MS)).toBe(30);
    expect(wholeDaysBetween(NOW_MS - 31 * DAY + 1, NOW_MS)).toBe(30);
    expect(wholeDaysBetween(NOW_MS + 1, NOW_MS)).toBe(-1);
  });

  it('tests for text the way Python strip() does', () => {
    expect(hasText('notes')).toBe(true);
    expect(hasText(' \t\n\r ')).toBe(false);
    // Python counts \x1c-\x1f and U+0085 as whitespace; JavaScript's trim() does not.
    expect(hasText('\x1c\x1d\x1e\x1f\x85\u3000\u2028')).toBe(false);
    // U+FEFF is whitespace to JavaScript, not to Python.
    expect(hasText('\ufeff')).toBe(true);
    expect(hasText('')).toBe(false);
  });

  it('rounds to hundredths half to even on exact ties, like round(x, 2)', () => {
    expect(roundToHundredths(1 / 8)).toBe(0.12);
    expect(roundToHundredths(3 / 8)).toBe(0.38);
    expect(roundToHundredths(5 / 8)).toBe(0.62);
    expect(roundToHundredths(7 / 8)).toBe(0.88);
    expect(roundToHundredths(2 / 3)).toBe(0.67);
    expect(roundToHundredths(1 / 3)).toBe(0.33);
    // 0.285 is stored a hair below the tie, so Python gives 0.28 as well.
    expect(roundToHundredths(0.285)).toBe(0.28);
    expect(roundToHundredths(1)).toBe(1);
    expect(roundToHundredths(0)).toBe(0);
  });
});

describe('documentation coverage', () => {
  it('gives each check its points and caps at 82', () => {
    const p = DOCUMENTATION_POINTS;
    expect(documentationChecks(['README.md']).score).toBe(p.readme);
    expect(documentationChecks(['ChangeLog']).score).toBe(p.changelog);
    expect(documentationChecks(['examples/a.py']).score).toBe(p.examples);
    expect(documentationChecks(['example/a.py']).score).toBe(p.examples);
    expect(documentationChecks(['CONTRIBUTING.md']).score).toBe(p.contributing);
    expect(documentationChecks(['LICENCE.md']).score).toBe(p.licenseFile);
    expect(documentationChecks(['doc/x.md']).score).toBe(p.docsDir);
    const all = ['README', 'HISTORY.md', 'examples/x', 'contributing.txt', 'COPYING', 'docs/a.md'];
    expect(documentationChecks(all).score).toBe(25 + 15 + 15 + 10 + 10 + 7);
    expect(DOCUMENTATION_CAP).toBe(82);
  });

  it('looks at the root only for files, and matches folder names exactly', () => {
    const nested = documentationChecks(['pkg/README.md', 'pkg/LICENSE', 'Examples/a.py', 'Docs/a.md', 'docs']);
    expect(nested.score).toBe(0);
    expect(nested.details).toEqual({
      checks: {
        has_readme: false,
        has_changelog: false,
        has_examples: false,
        has_contributing: false,
        has_license_file: false,
        has_docs_dir: false,
      },
    });
    expect(documentationChecks(['README.markdown', 'LICENSE-MIT']).score).toBe(0);
  });

  it('adds provenance: security policy 3, code of conduct 3, namespace match 7, installable 5, capped at 18', () => {
    expect(provenanceSignals(['SECURITY.md'], '', null).score).toBe(3);
    expect(provenanceSignals(['.github/SECURITY.md'], '', null).score).toBe(3);
    expect(provenanceSignals(['docs/SECURITY.md'], '', null).score).toBe(0);
    expect(provenanceSignals(['CODE_OF_CONDUCT.md'], '', null).score).toBe(3);
    expect(provenanceSignals(['setup.cfg'], '', null).score).toBe(5);
    expect(provenanceSignals(['Package.json'], '', null).score).toBe(0);
    const all = provenanceSignals(['SECURITY.md', 'CODE_OF_CONDUCT.md', 'go.mod'], 'Acme/x', '@acme/server');
    expect(all.score).toBe(PROVENANCE_CAP);
    expect(all.details).toEqual({
      checks: {
        has_security_policy: true,
        has_code_of_conduct: true,
        namespace_owner_match: true,
        repo_owner: 'acme',
        registry_namespace: 'acme',
        has_installable_package: true,
      },
    });
  });

  it('matches owner and namespace when equal or one contains the other, and leaves it unjudged when one is unknown', () => {
    expect(registryNamespace('@@Acme/server')).toBe('acme');
    expect(registryNamespace('io.github.acme/server')).toBe('io.github.acme');
    expect(registryNamespace('no-slash')).toBe('');
    expect(provenanceSignals([], 'acme/x', 'io.github.acme/server').details.checks).toMatchObject({
      namespace_owner_match: true,
    });
    expect(provenanceSignals([], 'acme-labs/x', 'acme/server').score).toBe(7);
    expect(provenanceSignals([], 'other/x', 'acme/server').details.checks).toMatchObject({
      namespace_owner_match: false,
      repo_owner: 'other',
      registry_namespace: 'acme',
    });
    expect(provenanceSignals([], 'other/x', 'acme/server').score).toBe(0);
    expect(provenanceSignals([], 'acme/x', 'server').details.checks).toMatchObject({ namespace_owner_match: null });
    expect(provenanceSignals([], 'acme', 'acme/server').details.checks).toMatchObject({ namespace_owner_match: null });
  });

  it('sums documentation and provenance, stopping at 100', () => {
    const full = analyzeRepository(
      facts({
        fullName: 'acme/x',
        paths: [
          'README.md',
          'CHANGELOG.md',
          'examples/a',
          'CONTRIBUTING.md',
          'LICENSE',
          'docs/a',
          'SECURITY.md',
          'package.json',
        ],
      }),
      { now: NOW, registryId: 'acme/x' },
    );
    // 82 + (3 + 7 + 5) = 97
    expect(full.documentationCoverage).toBe(97);
    const capped = analyzeRepository(
      facts({
        fullName: 'acme/x',
        paths: [
          'README.md',
          'CHANGELOG.md',
          'examples/a',
          'CONTRIBUTING.md',
          'LICENSE',
          'docs/a',
          'SECURITY.md',
          'CODE_OF_CONDUCT.md',
          'package.json',
        ],
      }),
      { now: NOW, registryId: 'acme/x' },
    );
    expect(capped.documentationCoverage).toBe(100);
  });
});

describe('maintenance pulse', () => {
  it('gives vitality from push recency at and around each step', () => {
    const cases: [number, number][] = [
      [0, 40],
      [30, 40],
      [31, 30],
      [90, 30],
      [91, 20],
      [180, 20],
      [181, 10],
      [365, 10],
      [366, 0],
    ];
    for (const [days, vitality] of cases) {
      expect(pulse({ pushedAt: daysAgo(days) }).details.vitality, `${days} days`).toBe(vitality);
    }
    // 30 days and 23 hours is still 30 whole days.
    expect(pulse({ pushedAt: daysAgo(30, 23 * 3_600_000) }).details.vitality).toBe(40);
    expect(pulse({ pushedAt: daysAgo(-3) }).details).toMatchObject({ days_since_last_push: -3, vitality: 40 });
    expect(PUSH_RECENCY_VITALITY.map((s) => s.maxDays)).toEqual([30, 90, 180, 365]);
  });

  it('counts no push, or an unreadable push time, as no vitality', () => {
    expect(pulse({}).details).not.toHaveProperty('days_since_last_push');
    expect(pulse({ pushedAt: 'last tuesday' }).details.vitality).toBe(0);
    // A time without an offset is UTC, never the local time of the machine running the score.
    expect(pulse({ pushedAt: '2026-11-02T12:00:00' }).details.days_since_last_push).toBe(30);
  });

  it('adds the commit bonus at 5 and 10 commits, capped at 40', () => {
    const old = daysAgo(100); // vitality 20
    expect(pulse({ pushedAt: old, recentCommits: 4 }).details.vitality).toBe(20);
    expect(pulse({ pushedAt: old, recentCommits: 5 }).details.vitality).toBe(25);
    expect(pulse({ pushedAt: old, recentCommits: 9 }).details.vitality).toBe(25);
    expect(pulse({ pushedAt: old, recentCommits: 10 }).details.vitality).toBe(30);
    expect(pulse({ pushedAt: daysAgo(40), recentCommits: 30 }).details.vitality).toBe(40);
    expect(COMMIT_BONUS.map((s) => s.min)).toEqual([10, 5]);
  });

  it('applies the stability floor only with 50 stars, a release and an issue ratio under 0.3', () => {
    const old = daysAgo(400);
    const one = [release('v1.0.0')];
    expect(pulse({ pushedAt: old, stars: 50, releases: one, openIssues: 14 }).details).toMatchObject({
      vitality: 20,
      stability_floor_applied: true,
    });
    expect(pulse({ pushedAt: old, stars: 49, releases: one }).details).not.toHaveProperty('stability_floor_applied');
    expect(pulse({ pushedAt: old, stars: 50, releases: [] }).details).not.toHaveProperty('stability_floor_applied');
    // 15 / 50 = 0.3 is not below 0.3.
    expect(pulse({ pushedAt: old, stars: 50, releases: one, openIssues: 15 }).details.vitality).toBe(0);
    // Push recency of 10 is raised to the floor; 30 is not lowered; the commit bonus adds on top.
    expect(pulse({ pushedAt: daysAgo(200), stars: 60, releases: one }).details.vitality).toBe(20);
    expect(pulse({ pushedAt: daysAgo(60), stars: 60, releases: one }).details).not.toHaveProperty(
      'stability_floor_applied',
    );
    expect(pulse({ pushedAt: old, stars: 60, releases: one, recentCommits: 10 }).details.vitality).toBe(30);
    expect(STABILITY_FLOOR).toEqual({ minStars: 50, maxOpenIssueRatio: 0.3, vitality: 20 });
  });

  it('scores release discipline: count, newest release age, notes, capped at 30', () => {
    expect(pulse({ releases: [release('a')] }).details.release_discipline).toBe(10);
    expect(pulse({ releases: [release('a'), release('b')] }).details.release_discipline).toBe(10);
    expect(pulse({ releases: [release('a'), release('b'), release('c')] }).details.release_discipline).toBe(15);
    const at = (days: number) => pulse({ releases: [release('a', { publishedAt: daysAgo(days) })] }).details;
    expect(at(90)).toMatchObject({ release_discipline: 20, days_since_latest_release: 90 });
    expect(at(91).release_discipline).toBe(15);
    expect(at(180).release_discipline).toBe(15);
    expect(at(181).release_discipline).toBe(10);
    // Notes count only among the newest three.
    const fourth = [release('a'), release('b'), release('c'), release('d', { body: 'notes' })];
    expect(pulse({ releases: fourth }).details).not.toHaveProperty('has_release_notes');
    const third = [release('a'), release('b'), release('c', { body: 'notes' })];
    expect(pulse({ releases: third }).details).toMatchObject({ has_release_notes: true, release_discipline: 20 });
    const best = [release('a', { publishedAt: daysAgo(1), body: 'x' }), release('b'), release('c')];
    expect(pulse({ releases: best }).details.release_discipline).toBe(30);
  });

  it('scores stars at 10, 50, 100 and 1000', () => {
    const cases: [number, number][] = [
      [9, 0],
      [10, 5],
      [49, 5],
      [50, 10],
      [99, 10],
      [100, 12],
      [999, 12],
      [1000, 15],
    ];
    for (const [stars, points] of cases) expect(pulse({ stars }).details.star_pts, `${stars} stars`).toBe(points);
  });

  it('scores issue responsiveness: none is neutral, then the ratio at 0.05, 0.1 and 0.3', () => {
    expect(issuePoints(0, 0)).toBe(5);
    expect(pulse({ stars: 100, openIssues: 4 }).details.issue_pts).toBe(10);
    expect(pulse({ stars: 100, openIssues: 5 }).details.issue_pts).toBe(7);
    expect(pulse({ stars: 100, openIssues: 9 }).details.issue_pts).toBe(7);
    expect(pulse({ stars: 100, openIssues: 10 }).details.issue_pts).toBe(3);
    expect(pulse({ stars: 100, openIssues: 29 }).details.issue_pts).toBe(3);
    expect(pulse({ stars: 100, openIssues: 30 }).details.issue_pts).toBe(0);
    // The engine's ratio is 0 without stars, so open issues on an unstarred project score as very responsive.
    expect(pulse({ stars: 0, openIssues: 3 }).details.issue_pts).toBe(10);
  });

  it('scores forks at 1, 10 and 50, and sums the three signals', () => {
    const cases: [number, number][] = [
      [0, 0],
      [1, 1],
      [9, 1],
      [10, 3],
      [49, 3],
      [50, 5],
    ];
    for (const [forks, points] of cases) expect(pulse({ forks }).details.fork_pts, `${forks} forks`).toBe(points);
    // The engine's own example (tests/test_maintenance_pulse.py). Its comment says 65, but a newest release
    // exactly 180 days old still earns the +5 under its code: 20 + (15 + 5 + 5) + (12 + 10 + 3) = 70.
    const mature = pulse({
      pushedAt: daysAgo(240),
      stars: 200,
      forks: 30,
      openIssues: 5,
      recentCommits: 3,
      releases: [
        release('c', { publishedAt: daysAgo(180), body: 'n' }),
        release('b', { publishedAt: daysAgo(240), body: 'n' }),
        release('a', { publishedAt: daysAgo(300), body: 'n' }),
      ],
    });
    expect(mature.score).toBe(70);
    expect(mature.details).toMatchObject({ vitality: 20, release_discipline: 25, community_health: 25 });
  });
});

describe('dependency health', () => {
  it('gives manifest 30, lock file 25, CI 20, automation 25', () => {
    expect(dependencyHealth(['package.json']).score).toBe(30);
    expect(dependencyHealth(['services/api/dev-requirements.txt']).score).toBe(30);
    expect(dependencyHealth(['requirements.in']).score).toBe(30);
    expect(dependencyHealth(['sub/requirements.in', 'sub/package.json', 'Package.json']).score).toBe(0);
    expect(dependencyHealth(['bun.lockb']).score).toBe(25);
    expect(dependencyHealth(['sub/yarn.lock']).score).toBe(0);
    expect(dependencyHealth(['.github/workflows/ci.yml']).score).toBe(20);
    expect(dependencyHealth(['.github/workflows']).score).toBe(0);
    expect(dependencyHealth(['Jenkinsfile']).score).toBe(20);
    expect(dependencyHealth(['.circleci/config.yml']).score).toBe(20);
    expect(dependencyHealth(['.github/dependabot.yaml']).score).toBe(25);
    expect(dependencyHealth(['dependabot.yml']).score).toBe(0);
    expect(dependencyHealth(['go.mod', 'go.sum', '.travis.yml', '.renovaterc']).details).toEqual({
      checks: { has_dependency_manifest: true, has_lock_file: true, has_ci: true, has_dependency_automation: true },
    });
    expect(dependencyHealth(['go.mod', 'go.sum', '.travis.yml', '.renovaterc']).score).toBe(100);
  });
});

describe('license clarity', () => {
  it('gives 100 to a known SPDX id, 70 to another id, 40 to a name only, 0 to none or NOASSERTION', () => {
    expect(licenseClarity({ spdxId: 'MIT', name: 'MIT License' })).toEqual({
      score: 100,
      details: { spdx_id: 'MIT', name: 'MIT License' },
    });
    expect(KNOWN_LICENSES.size).toBe(15);
    expect(licenseClarity({ spdxId: 'EUPL-1.2', name: 'EUPL' })).toEqual({
      score: 70,
      details: { spdx_id: 'EUPL-1.2', name: 'EUPL', note: 'non_standard_but_identified' },
    });
    // GPL-3.0-only is a valid SPDX id but not in the engine's list.
    expect(licenseClarity({ spdxId: 'GPL-3.0-only', name: null }).score).toBe(70);
    expect(licenseClarity({ spdxId: null, name: 'Custom' })).toEqual({
      score: 40,
      details: { spdx_id: null, name: 'Custom', note: 'custom_license' },
    });
    expect(licenseClarity({ spdxId: null, name: null }).score).toBe(0);
    const none = { score: 0, details: { license: null, issue: 'no_license_detected' } };
    expect(licenseClarity(null)).toEqual(none);
    expect(licenseClarity({ spdxId: 'NOASSERTION', name: 'Other' })).toEqual(none);
  });
});

describe('version hygiene', () => {
  it('reads semver like the engine pattern under Python re.match', () => {
    for (const ok of ['1.2.3', 'v1.2.3', '1.2.3-beta.1', 'v10.0.0+build.5', '1.2.3\n', '\u0661.\u0662.\u0663'])
      expect(SEMVER_PATTERN.test(ok), JSON.stringify(ok)).toBe(true);
    for (const bad of ['1.2', 'V1.2.3', 'release-1.2.3', '1.2.3.4', '1.2.3-\nx', '1.2.3\n\n', ' 1.2.3', 'v1.2.3rc1'])
      expect(SEMVER_PATTERN.test(bad), JSON.stringify(bad)).toBe(false);
  });

  it('gives nothing without versions, and 30 for having releases', () => {
    expect(versionHygiene([], [])).toEqual({ score: 0, details: { version_count: 0, issue: 'no_versions_or_tags' } });
    expect(versionHygiene([release('nightly')], []).score).toBe(30);
  });

  it('scores the semver share at 0.5 and 0.8, and any semver below that', () => {
    const tags = (semver: number, other: number) => [
      ...Array.from({ length: semver }, (_, i) => `1.0.${i}`),
      ...Array.from({ length: other }, (_, i) => `build-${i}`),
    ];
    expect(versionHygiene([], tags(4, 1)).details).toMatchObject({ semver_ratio: 0.8 });
    expect(versionHygiene([], tags(4, 1)).score).toBe(35);
    expect(versionHygiene([], tags(7, 2)).score).toBe(20); // 0.78
    expect(versionHygiene([], tags(1, 1)).score).toBe(20); // 0.5
    expect(versionHygiene([], tags(4, 5)).score).toBe(10); // 0.44
    expect(versionHygiene([], tags(0, 3)).score).toBe(0);
    expect(versionHygiene([], tags(3, 5)).details).toMatchObject({
      semver_ratio: 0.38,
      semver_count: 3,
      total_versions: 8,
    });
  });

  it('counts release tags and tags once each, in order', () => {
    const read = versionHygiene([release('v1.0.0'), release('v0.9.0')], ['v1.0.0', 'v0.9.0', 'v0.8.0']);
    expect(read.details).toMatchObject({ version_count: 3, semver_count: 3 });
    // An empty tag name is a version too (the engine reads a missing tag_name as '').
    expect(versionHygiene([release('')], ['1.0.0']).details).toMatchObject({ version_count: 2, semver_ratio: 0.5 });
  });

  it('adds notes (15), notes on half of several releases (10) and prereleases (10)', () => {
    const notes = (...bodies: string[]) => bodies.map((body, i) => release(`${i}.0.0`, { body }));
    expect(versionHygiene(notes('x'), []).score).toBe(30 + 35 + 15); // one release: no share bonus
    expect(versionHygiene(notes('x', ''), []).score).toBe(30 + 35 + 15 + 10); // 1 of 2 = 0.5
    expect(versionHygiene(notes('x', '', ''), []).score).toBe(30 + 35 + 15); // 1 of 3
    expect(versionHygiene(notes(' ', ''), []).details).toMatchObject({ releases_with_notes: 0 });
    const pre = [release('1.0.0', { prerelease: true })];
    expect(versionHygiene(pre, []).details).toMatchObject({ uses_prereleases: true });
    expect(versionHygiene(pre, []).score).toBe(30 + 35 + 10);
    const best = [release('1.0.0', { body: 'a', prerelease: true }), release('0.9.0', { body: 'b' })];
    expect(versionHygiene(best, []).score).toBe(100);
  });
});

describe('analyzeRepository and staticAnalysisOf', () => {
  it('keeps the facts the engine keeps beside the scores', () => {
    const read = analyzeRepository(
      facts({
        pushedAt: '2026-11-30T00:00:00Z',
        stars: 7,
        openIssues: 2,
        releases: [release('v2.0.0')],
        tags: ['v3.0.0'],
      }),
      { now: NOW },
    );
    expect(read).toMatchObject({
      lastCommitAt: '2026-11-30T00:00:00Z',
      latestVersion: 'v2.0.0',
      stars: 7,
      openIssues: 2,
    });
    expect(analyzeRepository(facts({ tags: ['v3.0.0'] }), { now: NOW }).latestVersion).toBe('v3.0.0');
    expect(analyzeRepository(facts({ pushedAt: 'soon' }), { now: NOW }).lastCommitAt).toBeNull();
  });

  it('refuses a now that is not an ISO time', () => {
    expect(() => analyzeRepository(facts(), { now: 'today' })).toThrow(RangeError);
  });

  it('merges the repository and schema halves into a StaticAnalysis', () => {
    const repository = analyzeRepository(facts({ paths: ['README.md'], license: { spdxId: 'MIT', name: 'MIT' } }), {
      now: NOW,
    });
    const merged = staticAnalysisOf(repository, {
      schemaCompleteness: 90,
      descriptionQuality: 60,
      details: { schema_completeness: { source: 'runtime' } },
    });
    expect(merged).toEqual({
      schemaCompleteness: 90,
      descriptionQuality: 60,
      documentationCoverage: 25,
      maintenancePulse: 5,
      dependencyHealth: 0,
      licenseClarity: 100,
      versionHygiene: 0,
      details: { schema_completeness: { source: 'runtime' }, ...repository.details },
    });
    expect(merged.details).toHaveProperty('documentation_coverage.checks.has_readme', true);
    expect(merged.details).toHaveProperty('license_clarity.spdx_id', 'MIT');
  });
});

interface Vector {
  name: string;
  registryId: string | null;
  facts: RepositoryFacts;
  expected: Record<string, unknown>;
}

// Facts and answers written by running the engine 0.9.0's probes/static.py functions on these facts, with its
// clock fixed at `now` (a throwaway script, not kept): its behaviour, not ours, decides every number here.
const vectors = JSON.parse(
  readFileSync(new URL('./fixtures/engine-repository-vectors.json', import.meta.url), 'utf8'),
) as { now: string; cases: Vector[] };

describe('whole repositories, as the engine 0.9.0 scores them', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, vector) => {
    const read = analyzeRepository(vector.facts, { now: vectors.now, registryId: vector.registryId });
    expect({
      documentationCoverage: read.documentationCoverage,
      maintenancePulse: read.maintenancePulse,
      dependencyHealth: read.dependencyHealth,
      licenseClarity: read.licenseClarity,
      versionHygiene: read.versionHygiene,
      details: read.details,
    }).toEqual(vector.expected);
  });
});
