/**
 * The five repository sub-scores of the docs-and-maintenance category (documentation coverage,
 * maintenance pulse, dependency health, license clarity, version hygiene), each 0-100, computed from
 * facts about a GitHub repository the way the open engine 0.9.0 computes them. Pure module: no I/O,
 * no clock (`now` is an input).
 *
 * Schema completeness and description quality are not here: they come from the live tool schemas
 * (schema-analysis.ts). {@link staticAnalysisOf} puts both halves together into a StaticAnalysis.
 */
import { MS_PER_DAY } from '@mcp-atlas/base';
import { parseIsoTime } from './iso-time.js';
import { roundHalfEven } from './rounding.js';
import type { RepositoryFacts, RepositoryRelease, StaticAnalysis } from './types.js';

// ---------------------------------------------------------------------------------------------
// Documentation coverage
// ---------------------------------------------------------------------------------------------

/** Root file names (compared in lower case) that count as a README (engine 0.9.0). */
export const README_FILE_NAMES: ReadonlySet<string> = new Set(['readme.md', 'readme.rst', 'readme.txt', 'readme']);

/** Root file names (lower case) that count as a changelog (engine 0.9.0). */
export const CHANGELOG_FILE_NAMES: ReadonlySet<string> = new Set([
  'changelog.md',
  'changelog.txt',
  'changelog',
  'changes.md',
  'history.md',
  'releases.md',
]);

/** Root file names (lower case) that count as a contributing guide (engine 0.9.0). */
export const CONTRIBUTING_FILE_NAMES: ReadonlySet<string> = new Set([
  'contributing.md',
  'contributing.txt',
  'contributing',
]);

/** Root file names (lower case) that count as a license file (engine 0.9.0). */
export const LICENSE_FILE_NAMES: ReadonlySet<string> = new Set([
  'license',
  'license.md',
  'license.txt',
  'licence',
  'licence.md',
  'copying',
]);

/** Path prefixes (case-sensitive, any depth below) that count as an examples folder (engine 0.9.0). */
export const EXAMPLES_PATH_PREFIXES: readonly string[] = Object.freeze(['examples/', 'example/']);

/** Path prefixes (case-sensitive) that count as a documentation folder (engine 0.9.0). */
export const DOCS_PATH_PREFIXES: readonly string[] = Object.freeze(['docs/', 'doc/']);

/**
 * Documentation points (engine 0.9.0): README 25, changelog 15, examples 15, contributing guide 10,
 * license file 10, docs folder 7. Their sum (82) is also {@link DOCUMENTATION_CAP}.
 */
export const DOCUMENTATION_POINTS = Object.freeze({
  readme: 25,
  changelog: 15,
  examples: 15,
  contributing: 10,
  licenseFile: 10,
  docsDir: 7,
});

/** The most the documentation checks give (engine 0.9.0: 82); provenance adds up to {@link PROVENANCE_CAP}. */
export const DOCUMENTATION_CAP = 82;

/** Paths (lower case, full path) that count as a security policy (engine 0.9.0). */
export const SECURITY_POLICY_PATHS: ReadonlySet<string> = new Set([
  'security.md',
  'security.txt',
  '.github/security.md',
]);

/** Paths (lower case, full path) that count as a code of conduct (engine 0.9.0). */
export const CODE_OF_CONDUCT_PATHS: ReadonlySet<string> = new Set(['code_of_conduct.md', '.github/code_of_conduct.md']);

/** Root manifests (exact spelling) that make the repository an installable package (engine 0.9.0). */
export const INSTALLABLE_MANIFESTS: ReadonlySet<string> = new Set([
  'package.json',
  'setup.py',
  'setup.cfg',
  'pyproject.toml',
  'Cargo.toml',
  'go.mod',
]);

/**
 * Provenance points added to documentation coverage (engine 0.9.0): security policy 3, code of
 * conduct 3, repository owner matching the registry namespace 7, installable package 5.
 */
export const PROVENANCE_POINTS = Object.freeze({
  securityPolicy: 3,
  codeOfConduct: 3,
  namespaceMatch: 7,
  installable: 5,
});

/** The most provenance adds (engine 0.9.0: 18); documentation coverage as a whole stops at 100. */
export const PROVENANCE_CAP = 18;

// ---------------------------------------------------------------------------------------------
// Maintenance pulse
// ---------------------------------------------------------------------------------------------

/** A step of a table: at most `maxDays` days old earns `points`. */
export interface AgeStep {
  readonly maxDays: number;
  readonly points: number;
}

/** A step of a table: at least `min` earns `points`. */
export interface CountStep {
  readonly min: number;
  readonly points: number;
}

/**
 * Vitality from the days since the last push (engine 0.9.0): up to 30 days 40, 90 days 30, 180 days
 * 20, 365 days 10, older 0. Days are whole days, rounded down.
 */
export const PUSH_RECENCY_VITALITY: readonly AgeStep[] = Object.freeze([
  { maxDays: 30, points: 40 },
  { maxDays: 90, points: 30 },
  { maxDays: 180, points: 20 },
  { maxDays: 365, points: 10 },
]);

/** The most vitality can reach, commit bonus included (engine 0.9.0: 40). */
export const VITALITY_CAP = 40;

/**
 * The stability floor (engine 0.9.0): a project with at least 50 stars, at least one release and an
 * open-issue ratio (open issues / stars) below 0.3 keeps at least 20 vitality however old its last push.
 */
export const STABILITY_FLOOR = Object.freeze({ minStars: 50, maxOpenIssueRatio: 0.3, vitality: 20 });

/** Vitality bonus for the commits on the first page of the commit list (engine 0.9.0): 10 or more +10, 5 or more +5. */
export const COMMIT_BONUS: readonly CountStep[] = Object.freeze([
  { min: 10, points: 10 },
  { min: 5, points: 5 },
]);

/** Release discipline for the releases listed (engine 0.9.0): 3 or more 15, 1 or more 10. */
export const RELEASE_COUNT_POINTS: readonly CountStep[] = Object.freeze([
  { min: 3, points: 15 },
  { min: 1, points: 10 },
]);

/** Release discipline for the newest release's age (engine 0.9.0): up to 90 days +10, up to 180 days +5. */
export const RELEASE_RECENCY_POINTS: readonly AgeStep[] = Object.freeze([
  { maxDays: 90, points: 10 },
  { maxDays: 180, points: 5 },
]);

/** Release discipline when one of the newest {@link RELEASE_NOTES_WINDOW} releases has notes (engine 0.9.0: +5). */
export const RELEASE_NOTES_POINTS = 5;

/** How many of the newest releases are searched for notes (engine 0.9.0: 3). */
export const RELEASE_NOTES_WINDOW = 3;

/** The most release discipline gives (engine 0.9.0: 30). */
export const RELEASE_DISCIPLINE_CAP = 30;

/** Community points for stars (engine 0.9.0): 1000 or more 15, 100 12, 50 10, 10 5, fewer 0. */
export const STAR_POINTS: readonly CountStep[] = Object.freeze([
  { min: 1000, points: 15 },
  { min: 100, points: 12 },
  { min: 50, points: 10 },
  { min: 10, points: 5 },
]);

/**
 * Community points for issue responsiveness (engine 0.9.0). No open issue is neutral (5), not the best;
 * otherwise the open-issue ratio (open issues / stars, 0 when there are no stars) below 0.05 gives 10,
 * below 0.1 gives 7, below 0.3 gives 3, and 0 past that.
 */
export const ISSUE_POINTS = Object.freeze({
  noOpenIssues: 5,
  steps: Object.freeze([
    { below: 0.05, points: 10 },
    { below: 0.1, points: 7 },
    { below: 0.3, points: 3 },
  ]) as readonly { readonly below: number; readonly points: number }[],
});

/** Community points for forks (engine 0.9.0): 50 or more 5, 10 3, 1 1, none 0. */
export const FORK_POINTS: readonly CountStep[] = Object.freeze([
  { min: 50, points: 5 },
  { min: 10, points: 3 },
  { min: 1, points: 1 },
]);

/** The most community health gives (engine 0.9.0: 30). */
export const COMMUNITY_CAP = 30;

// ---------------------------------------------------------------------------------------------
// Dependency health
// ---------------------------------------------------------------------------------------------

/**
 * Root dependency manifests (exact path) of the dependency-health check (engine 0.9.0). A path ending
 * in `requirements.txt` at any depth, or a root `requirements.in`, counts as well.
 */
export const DEPENDENCY_MANIFESTS: ReadonlySet<string> = new Set([
  'package.json',
  'pyproject.toml',
  'Cargo.toml',
  'go.mod',
]);

/** Lock files (exact root path) (engine 0.9.0). */
export const LOCK_FILES: ReadonlySet<string> = new Set([
  'package-lock.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'poetry.lock',
  'uv.lock',
  'Pipfile.lock',
  'Cargo.lock',
  'go.sum',
]);

/** CI markers (engine 0.9.0): a path that starts with one of these counts as CI. */
export const CI_PATH_PREFIXES: readonly string[] = Object.freeze([
  '.github/workflows/',
  '.gitlab-ci.yml',
  '.circleci/',
  'Jenkinsfile',
  '.travis.yml',
]);

/** Dependency-update automation configs (exact path) (engine 0.9.0). */
export const DEPENDENCY_AUTOMATION_FILES: ReadonlySet<string> = new Set([
  'renovate.json',
  'renovate.json5',
  '.renovaterc',
  '.github/dependabot.yml',
  '.github/dependabot.yaml',
]);

/** Dependency-health points (engine 0.9.0): manifest 30, lock file 25, CI 20, update automation 25. */
export const DEPENDENCY_POINTS = Object.freeze({ manifest: 30, lockFile: 25, ci: 20, automation: 25 });

// ---------------------------------------------------------------------------------------------
// License clarity
// ---------------------------------------------------------------------------------------------

/** SPDX ids that count as a well-known license (engine 0.9.0). */
export const KNOWN_LICENSES: ReadonlySet<string> = new Set([
  'MIT',
  'Apache-2.0',
  'GPL-2.0',
  'GPL-3.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'ISC',
  'MPL-2.0',
  'LGPL-2.1',
  'LGPL-3.0',
  'AGPL-3.0',
  'Unlicense',
  '0BSD',
  'Artistic-2.0',
  'Zlib',
]);

/** The SPDX id GitHub gives a license file it cannot identify; it counts as no license. */
export const NO_ASSERTION = 'NOASSERTION';

/**
 * License clarity (engine 0.9.0): a known SPDX id 100, another SPDX id 70, only a license name 40,
 * nothing (or NOASSERTION) 0.
 */
export const LICENSE_POINTS = Object.freeze({ known: 100, identified: 70, namedOnly: 40, none: 0 });

// ---------------------------------------------------------------------------------------------
// Version hygiene
// ---------------------------------------------------------------------------------------------

/**
 * A semantic version, with an optional `v` and anything after `-` or `+` (engine 0.9.0). Written to
 * match what Python's `re.match` does with the engine's pattern: `\d` is any Unicode decimal digit,
 * `.` is anything but a line feed, and `$` also matches before one final line feed.
 */
export const SEMVER_PATTERN = /^v?\p{Nd}+\.\p{Nd}+\.\p{Nd}+(?:[-+][^\n]*)?\n?$/u;

/** Semver share thresholds (engine 0.9.0): 0.8 or more is "mostly semver", 0.5 or more "half". */
export const SEMVER_RATIO_THRESHOLDS = Object.freeze({ most: 0.8, half: 0.5 });

/** Share of releases with notes that earns {@link VERSION_POINTS}.notesOnMost, with more than one release (engine 0.9.0: 0.5). */
export const RELEASE_NOTES_SHARE = 0.5;

/**
 * Version hygiene points (engine 0.9.0): any release 30; semver share at least 0.8 35, at least 0.5
 * 20, else at least one semver version 10; at least one release with notes 15; half or more of
 * several releases with notes 10; a prerelease 10. Total at most 100.
 */
export const VERSION_POINTS = Object.freeze({
  hasReleases: 30,
  semverMost: 35,
  semverHalf: 20,
  semverSome: 10,
  notes: 15,
  notesOnMost: 10,
  prerelease: 10,
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Whole days from `then` to `now`, rounded down (a future time gives a negative number), like Python's `timedelta.days`. */
export function wholeDaysBetween(thenMs: number, nowMs: number): number {
  return Math.floor((nowMs - thenMs) / MS_PER_DAY);
}

// Python's str.isspace characters; a body made only of these has no notes (the engine's `.strip()`).
const NOT_PYTHON_SPACE = /[^\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/** True when the text has something besides whitespace (Python's `bool(text.strip())`). */
export function hasText(text: string | null | undefined): boolean {
  return typeof text === 'string' && NOT_PYTHON_SPACE.test(text);
}

/**
 * Rounds to two decimals like Python's `round(x, 2)`: nearest, and on an exact tie (the double is
 * exactly halfway, as 0.125 is) to the even last digit. `roundToHundredths(0.125)` is 0.12,
 * `roundToHundredths(0.375)` is 0.38, `roundToHundredths(2 / 3)` is 0.67.
 */
export function roundToHundredths(value: number): number {
  if (!Number.isFinite(value)) return value;
  // Only multiples of 1/8 can sit exactly halfway between two hundredths in binary; scaling them by 100 is exact.
  const scaled = value * 100;
  if (Number.isInteger(value * 8) && scaled - Math.floor(scaled) === 0.5) return roundHalfEven(scaled) / 100;
  // toFixed rounds the exact binary value, which is what Python does when there is no exact tie.
  return Number(value.toFixed(2));
}

function countNumber(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

function ageStepPoints(steps: readonly AgeStep[], days: number): number {
  for (const step of steps) if (days <= step.maxDays) return step.points;
  return 0;
}

function countStepPoints(steps: readonly CountStep[], count: number): number {
  for (const step of steps) if (count >= step.min) return step.points;
  return 0;
}

function isRootPath(path: string): boolean {
  return !path.includes('/');
}

// ---------------------------------------------------------------------------------------------
// The sub-scores
// ---------------------------------------------------------------------------------------------

/** A sub-score and its details, with the engine's key names. */
export interface SubScore {
  score: number;
  details: Record<string, unknown>;
}

/**
 * Documentation checks (before provenance): README, changelog, contributing guide and license file at
 * the root (any case), examples and docs folders. Capped at {@link DOCUMENTATION_CAP}.
 * Example: README and license file only: 25 + 10 = 35.
 */
export function documentationChecks(paths: readonly string[]): SubScore {
  const root = paths.filter(isRootPath).map((p) => p.toLowerCase());
  const checks = {
    has_readme: root.some((f) => README_FILE_NAMES.has(f)),
    has_changelog: root.some((f) => CHANGELOG_FILE_NAMES.has(f)),
    has_examples: paths.some((f) => EXAMPLES_PATH_PREFIXES.some((prefix) => f.startsWith(prefix))),
    has_contributing: root.some((f) => CONTRIBUTING_FILE_NAMES.has(f)),
    has_license_file: root.some((f) => LICENSE_FILE_NAMES.has(f)),
    has_docs_dir: paths.some((f) => DOCS_PATH_PREFIXES.some((prefix) => f.startsWith(prefix))),
  };
  const p = DOCUMENTATION_POINTS;
  const score =
    (checks.has_readme ? p.readme : 0) +
    (checks.has_changelog ? p.changelog : 0) +
    (checks.has_examples ? p.examples : 0) +
    (checks.has_contributing ? p.contributing : 0) +
    (checks.has_license_file ? p.licenseFile : 0) +
    (checks.has_docs_dir ? p.docsDir : 0);
  return { score: Math.min(score, DOCUMENTATION_CAP), details: { checks } };
}

/**
 * The registry namespace of a registry id: the part before the first `/`, leading `@` removed, lower
 * case; '' when the id has no `/`. `registryNamespace('@Acme/server')` is 'acme',
 * `registryNamespace('io.github.acme/server')` is 'io.github.acme'.
 */
export function registryNamespace(registryId: string | null | undefined): string {
  if (!registryId?.includes('/')) return '';
  return (registryId.split('/')[0] ?? '').replace(/^@+/, '').toLowerCase();
}

/**
 * Provenance signals, added to documentation coverage (engine 0.9.0): a security policy, a code of
 * conduct, the repository owner matching the registry namespace (equal, or one contains the other,
 * ignoring case; not judged, `namespace_owner_match: null`, when either is unknown) and an installable
 * package manifest at the root. Capped at {@link PROVENANCE_CAP}.
 */
export function provenanceSignals(
  paths: readonly string[],
  fullName: string,
  registryId: string | null | undefined,
): SubScore {
  const checks: Record<string, unknown> = {};
  let score = 0;
  const hasSecurity = paths.some((f) => SECURITY_POLICY_PATHS.has(f.toLowerCase()));
  checks.has_security_policy = hasSecurity;
  if (hasSecurity) score += PROVENANCE_POINTS.securityPolicy;
  const hasConduct = paths.some((f) => CODE_OF_CONDUCT_PATHS.has(f.toLowerCase()));
  checks.has_code_of_conduct = hasConduct;
  if (hasConduct) score += PROVENANCE_POINTS.codeOfConduct;

  const owner = fullName.includes('/') ? (fullName.split('/')[0] ?? '').toLowerCase() : '';
  const namespace = registryNamespace(registryId);
  if (owner !== '' && namespace !== '') {
    const match = owner === namespace || owner.includes(namespace) || namespace.includes(owner);
    checks.namespace_owner_match = match;
    checks.repo_owner = owner;
    checks.registry_namespace = namespace;
    if (match) score += PROVENANCE_POINTS.namespaceMatch;
  } else {
    checks.namespace_owner_match = null;
  }

  const installable = paths.some((f) => INSTALLABLE_MANIFESTS.has(f));
  checks.has_installable_package = installable;
  if (installable) score += PROVENANCE_POINTS.installable;
  return { score: Math.min(score, PROVENANCE_CAP), details: { checks } };
}

/** Community points for the open-issue ratio (see {@link ISSUE_POINTS}). */
export function issuePoints(openIssues: number, ratio: number): number {
  if (openIssues === 0) return ISSUE_POINTS.noOpenIssues;
  for (const step of ISSUE_POINTS.steps) if (ratio < step.below) return step.points;
  return 0;
}

/**
 * Maintenance pulse (engine 0.9.0): vitality (up to 40: push recency, the stability floor, the commit
 * bonus) + release discipline (up to 30: release count, the newest release's age, notes) + community
 * health (up to 30: stars, issue responsiveness, forks). An unreadable push or release time counts as
 * none; a time without an offset is UTC, as everywhere in this package. Example: pushed 10 days ago, 12 commits, no release, 0 stars, no issue, no fork: 40 + 0 + 5 = 45.
 */
export function maintenancePulse(facts: RepositoryFacts, nowMs: number): SubScore {
  const details: Record<string, unknown> = {};
  const stars = countNumber(facts.stars);
  const forks = countNumber(facts.forks);
  const openIssues = countNumber(facts.openIssues);
  const releases = facts.releases;
  const hasAnyRelease = releases.length > 0;
  details.stars = stars;
  details.forks = forks;
  details.open_issues = openIssues;

  let vitality = 0;
  const pushedMs = parseIsoTime(facts.pushedAt);
  if (pushedMs !== null) {
    const days = wholeDaysBetween(pushedMs, nowMs);
    details.days_since_last_push = days;
    vitality = ageStepPoints(PUSH_RECENCY_VITALITY, days);
  }
  // The engine divides by the stars only when there are some; with none the ratio is 0.
  const openIssueRatio = stars > 0 ? openIssues / stars : 0;
  const floor = STABILITY_FLOOR;
  const isStable = stars >= floor.minStars && hasAnyRelease && openIssueRatio < floor.maxOpenIssueRatio;
  if (isStable && vitality < floor.vitality) {
    vitality = floor.vitality;
    details.stability_floor_applied = true;
  }
  const recentCommits = countNumber(facts.recentCommits);
  details.recent_commits = recentCommits;
  const commitBonus = countStepPoints(COMMIT_BONUS, recentCommits);
  if (commitBonus > 0) vitality = Math.min(VITALITY_CAP, vitality + commitBonus);
  details.vitality = vitality;

  let releasePoints = 0;
  if (hasAnyRelease) {
    details.release_count = releases.length;
    releasePoints += countStepPoints(RELEASE_COUNT_POINTS, releases.length);
    const publishedMs = parseIsoTime(releases[0]?.publishedAt);
    if (publishedMs !== null) {
      const days = wholeDaysBetween(publishedMs, nowMs);
      details.days_since_latest_release = days;
      releasePoints += ageStepPoints(RELEASE_RECENCY_POINTS, days);
    }
    if (releases.slice(0, RELEASE_NOTES_WINDOW).some((r) => hasText(r.body))) {
      releasePoints += RELEASE_NOTES_POINTS;
      details.has_release_notes = true;
    }
  }
  releasePoints = Math.min(releasePoints, RELEASE_DISCIPLINE_CAP);
  details.release_discipline = releasePoints;

  const starPoints = countStepPoints(STAR_POINTS, stars);
  const issuePts = issuePoints(openIssues, openIssueRatio);
  const forkPoints = countStepPoints(FORK_POINTS, forks);
  const community = Math.min(starPoints + issuePts + forkPoints, COMMUNITY_CAP);
  details.community_health = community;
  details.star_pts = starPoints;
  details.issue_pts = issuePts;
  details.fork_pts = forkPoints;

  return { score: Math.min(vitality + releasePoints + community, 100), details };
}

/**
 * Dependency health (engine 0.9.0): a dependency manifest 30, a lock file 25, CI 20, dependency-update
 * automation 25. Example: package.json, pnpm-lock.yaml and a workflow: 30 + 25 + 20 = 75.
 */
export function dependencyHealth(paths: readonly string[]): SubScore {
  const set = new Set(paths);
  const hasManifest =
    paths.some((f) => DEPENDENCY_MANIFESTS.has(f)) ||
    paths.some((f) => f.endsWith('requirements.txt') || f === 'requirements.in');
  const checks = {
    has_dependency_manifest: hasManifest,
    has_lock_file: [...LOCK_FILES].some((f) => set.has(f)),
    has_ci: CI_PATH_PREFIXES.some((prefix) => paths.some((f) => f.startsWith(prefix))),
    has_dependency_automation: [...DEPENDENCY_AUTOMATION_FILES].some((f) => set.has(f)),
  };
  const p = DEPENDENCY_POINTS;
  const score =
    (checks.has_dependency_manifest ? p.manifest : 0) +
    (checks.has_lock_file ? p.lockFile : 0) +
    (checks.has_ci ? p.ci : 0) +
    (checks.has_dependency_automation ? p.automation : 0);
  return { score: Math.min(score, 100), details: { checks } };
}

/**
 * License clarity from the license GitHub detected (see {@link LICENSE_POINTS}).
 * Example: `{ spdxId: 'MIT', name: 'MIT License' }` gives 100; `{ spdxId: 'NOASSERTION', ... }` gives 0.
 */
export function licenseClarity(license: RepositoryFacts['license']): SubScore {
  if (license === null || license.spdxId === NO_ASSERTION) {
    return { score: LICENSE_POINTS.none, details: { license: null, issue: 'no_license_detected' } };
  }
  const details: Record<string, unknown> = { spdx_id: license.spdxId, name: license.name };
  const spdx = license.spdxId ?? '';
  if (KNOWN_LICENSES.has(spdx)) return { score: LICENSE_POINTS.known, details };
  if (spdx !== '')
    return { score: LICENSE_POINTS.identified, details: { ...details, note: 'non_standard_but_identified' } };
  if (license.name) return { score: LICENSE_POINTS.namedOnly, details: { ...details, note: 'custom_license' } };
  return { score: LICENSE_POINTS.none, details };
}

/**
 * Version hygiene (see {@link VERSION_POINTS}) over the release tags then the tag names, duplicates
 * removed in order. Example: 3 semver releases, one with notes, no prerelease: 30 + 35 + 15 = 80.
 */
export function versionHygiene(releases: readonly RepositoryRelease[], tags: readonly string[]): SubScore {
  const details: Record<string, unknown> = {};
  const versions = [...new Set([...releases.map((r) => r.tagName), ...tags])];
  details.version_count = versions.length;
  if (versions.length === 0) {
    details.issue = 'no_versions_or_tags';
    return { score: 0, details };
  }
  let score = 0;
  const hasReleases = releases.length > 0;
  details.has_releases = hasReleases;
  if (hasReleases) score += VERSION_POINTS.hasReleases;

  const semverCount = versions.filter((v) => SEMVER_PATTERN.test(v)).length;
  details.semver_count = semverCount;
  details.total_versions = versions.length;
  const ratio = semverCount / versions.length;
  details.semver_ratio = roundToHundredths(ratio);
  if (ratio >= SEMVER_RATIO_THRESHOLDS.most) score += VERSION_POINTS.semverMost;
  else if (ratio >= SEMVER_RATIO_THRESHOLDS.half) score += VERSION_POINTS.semverHalf;
  else if (semverCount >= 1) score += VERSION_POINTS.semverSome;

  if (hasReleases) {
    const withNotes = releases.filter((r) => hasText(r.body)).length;
    details.releases_with_notes = withNotes;
    if (withNotes >= 1) score += VERSION_POINTS.notes;
    if (releases.length > 1 && withNotes / releases.length >= RELEASE_NOTES_SHARE) score += VERSION_POINTS.notesOnMost;
    const usesPrereleases = releases.some((r) => r.prerelease);
    details.uses_prereleases = usesPrereleases;
    if (usesPrereleases) score += VERSION_POINTS.prerelease;
  }
  return { score: Math.min(score, 100), details };
}

// ---------------------------------------------------------------------------------------------
// Putting it together
// ---------------------------------------------------------------------------------------------

/** The repository half of a StaticAnalysis, with the repository facts the engine keeps beside it. */
export interface RepositoryAnalysis {
  /** Documentation checks plus provenance signals, at most 100. */
  documentationCoverage: number;
  maintenancePulse: number;
  dependencyHealth: number;
  licenseClarity: number;
  versionHygiene: number;
  /**
   * With the engine's key names: documentation_coverage, provenance, maintenance_pulse,
   * dependency_health, license_clarity, version_hygiene.
   */
  details: Record<string, unknown>;
  /** The last push (the engine's `last_commit_at`), or null when unknown: ScoreServer.lastCommitAt. */
  lastCommitAt: string | null;
  /** The newest release's tag, else the first tag, else ''. */
  latestVersion: string;
  stars: number;
  openIssues: number;
}

/** Options of {@link analyzeRepository}. */
export interface AnalyzeRepositoryOptions {
  /** ISO time the ages are measured from. */
  now: string;
  /** The server's registry id (`io.github.acme/server`); its namespace is compared with the repository owner. */
  registryId?: string | null;
}

/**
 * Scores a repository's five docs-and-maintenance dimensions from its facts, as the engine 0.9.0 does.
 * Throws a RangeError when `now` is not an ISO time (a caller's bug, not outside data).
 *
 * @example
 * const repo = analyzeRepository(facts, { now: '2026-12-02T00:00:00Z', registryId: 'io.github.acme/weather' });
 * repo.licenseClarity; // 100 for MIT
 */
export function analyzeRepository(facts: RepositoryFacts, options: AnalyzeRepositoryOptions): RepositoryAnalysis {
  const nowMs = parseIsoTime(options.now);
  if (nowMs === null) throw new RangeError(`now must be an ISO time, got ${String(options.now).slice(0, 40)}`);
  const documentation = documentationChecks(facts.paths);
  const provenance = provenanceSignals(facts.paths, facts.fullName, options.registryId);
  const maintenance = maintenancePulse(facts, nowMs);
  const dependencies = dependencyHealth(facts.paths);
  const license = licenseClarity(facts.license);
  const versions = versionHygiene(facts.releases, facts.tags);
  const latestVersion = facts.releases.length > 0 ? (facts.releases[0]?.tagName ?? '') : (facts.tags[0] ?? '');
  return {
    documentationCoverage: Math.min(documentation.score + provenance.score, 100),
    maintenancePulse: maintenance.score,
    dependencyHealth: dependencies.score,
    licenseClarity: license.score,
    versionHygiene: versions.score,
    details: {
      provenance: provenance.details,
      documentation_coverage: documentation.details,
      maintenance_pulse: maintenance.details,
      dependency_health: dependencies.details,
      license_clarity: license.details,
      version_hygiene: versions.details,
    },
    lastCommitAt: parseIsoTime(facts.pushedAt) === null ? null : facts.pushedAt,
    latestVersion,
    stars: countNumber(facts.stars),
    openIssues: countNumber(facts.openIssues),
  };
}

/** The schema half of a StaticAnalysis: scores from the live tool schemas (schema-analysis.ts). */
export interface SchemaPart {
  schemaCompleteness: number;
  descriptionQuality: number;
  /** Extra details (the engine's schema_completeness and description_quality keys). */
  details?: Record<string, unknown>;
}

/**
 * Puts the repository half and the schema half together into the StaticAnalysis scoreServer reads.
 * Details of both are kept; the repository's keys win on a clash (they never share a key).
 */
export function staticAnalysisOf(repository: RepositoryAnalysis, schema: SchemaPart): StaticAnalysis {
  return {
    schemaCompleteness: schema.schemaCompleteness,
    descriptionQuality: schema.descriptionQuality,
    documentationCoverage: repository.documentationCoverage,
    maintenancePulse: repository.maintenancePulse,
    dependencyHealth: repository.dependencyHealth,
    licenseClarity: repository.licenseClarity,
    versionHygiene: repository.versionHygiene,
    details: { ...(schema.details ?? {}), ...repository.details },
  };
}
