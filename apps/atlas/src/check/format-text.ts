// The readable report of `mcp-atlas check` for a terminal: letter and reason first (what a person looks
// for), then the handshake timings, tools, findings, baseline, deep mode and gates.
import {
  ATLAS_SCORE_SCOPE,
  checklistOf,
  gradeLabelOf,
  scoreRaisersOf,
  VISIBILITY_DESCRIPTIONS,
} from '../score/shown-score.js';
import { checkScoreScope } from './check-score.js';
import { changeDetailLines } from './describe-change.js';
import { mapJsonStrings } from './json-strings.js';
import type { CheckReport, ConformanceReport, DeepCase, EntryListDiff, ListedKind } from './report-schema.js';
import { quoteControlText } from './terminal-text.js';

function entryLines(label: string, diff: EntryListDiff | null): string[] {
  if (diff === null) return [];
  return [
    ...diff.added.map((k) => `added ${label} ${k}`),
    ...diff.removed.map((k) => `removed ${label} ${k}`),
    ...diff.changed.map((k) => `changed ${label} ${k}`),
  ];
}

const ms = (value: number): string => `${Math.round(value)} ms`;

function section(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : ['', `${title}:`, ...lines.map((line) => `  ${line}`)];
}

// A scenario per line, then each check that did not succeed under it.
function conformanceLines(conformance: ConformanceReport): string[] {
  return conformance.scenarios.flatMap((scenario) => [
    `${scenario.passed ? 'passed' : 'FAILED'}  ${scenario.name}${scenario.passed ? '' : `: ${scenario.reason}`}`,
    ...scenario.checks
      .filter((check) => check.status !== 'SUCCESS')
      .map(
        (check) => `  ${check.status.toLowerCase()} ${check.id}${check.message === null ? '' : `: ${check.message}`}`,
      ),
  ]);
}

function deepLines(cases: readonly DeepCase[]): string[] {
  return cases.map(
    (c) =>
      `${c.kind.padEnd(16)} ${c.tool}  ${c.outcome}  ${ms(c.elapsedMs)}${c.detail === null ? '' : `  (${c.detail})`}`,
  );
}

/** How many of the things that would raise the score the text report lists. */
export const TEXT_RAISERS_SHOWN = 3;

// With --published-url, the score is the one at that URL: say so, and name the local flags it left out.
function publishedLines(published: CheckReport['published']): string[] {
  if (published === null) return [];
  const left = published.localFlagsLeftOut;
  return [
    `scored as if reached at ${published.url}`,
    left.length === 0
      ? 'no flag of the local check was left out'
      : `left out, as they come from the local check: ${left.map((f) => `${f.key} (${f.label})`).join(', ')}`,
  ];
}

/** The quality score: grade and tier, the dimension checklist, the flags, and what would raise it most. */
export function scoreLines(report: Pick<CheckReport, 'score' | 'transport' | 'published'>): string[] {
  const { score, published } = report;
  const scope = published === null ? checkScoreScope(report.transport) : ATLAS_SCORE_SCOPE;
  const composite = score.compositeScore === null ? 'no composite' : `composite ${score.compositeScore}`;
  const checklist = checklistOf(score, scope);
  const width = Math.max(...checklist.map((entry) => entry.label.length));
  const status = { scored: 'scored', pending: 'pending', 'not-applicable': 'not applicable' } as const;
  const raisers = scoreRaisersOf(score, scope).slice(0, TEXT_RAISERS_SHOWN);
  return [
    ...section(`score ${gradeLabelOf(score)}, ${composite}, tier ${score.visibilityLevel}`, [
      ...publishedLines(published),
      VISIBILITY_DESCRIPTIONS[score.visibilityLevel],
      ...checklist.map(
        (entry) =>
          `${entry.label.padEnd(width)}  ${status[entry.status]}${entry.score === null ? '' : ` ${entry.score}`}`,
      ),
    ]),
    ...section(
      'flags',
      score.flags.map((flag) => `${flag.key} (${flag.severity}): ${flag.description}`),
    ),
    ...section(
      'would raise the score most',
      raisers.map((r) =>
        r.kind === 'flag' ? `clear ${r.key}: +${r.points} (to ${r.to})` : `${r.label}: up to +${r.points} (to ${r.to})`,
      ),
    ),
  ];
}

/**
 * Formats a check report as plain text lines for a terminal. Every string of the report passes through
 * quoteControlText first: server text holding a control character prints quoted and escaped, the rest as it is.
 */
export function formatCheckText(checked: CheckReport): string {
  const report = mapJsonStrings(checked, quoteControlText);
  const lines: string[] = [
    `mcp-atlas check ${report.target}`,
    `letter ${report.letter}: ${report.reason}${report.message === '' ? '' : ` (${report.message})`}`,
    `protocol ${report.protocolVersion ?? 'none'}${report.serverInfo === null ? '' : `, server ${report.serverInfo.name} ${report.serverInfo.version}`}`,
    `handshake ${ms(report.elapsedMs)}, ${report.toolCount} tools, about ${report.tokens ?? 0} tokens of tool list`,
  ];
  const access = [
    ...report.access.headers.map((h) => `header ${h}`),
    ...report.access.env.map((name) => `env ${name}`),
    ...(report.access.timeoutMs === null ? [] : [`timeout ${report.access.timeoutMs} ms`]),
  ];
  if (access.length > 0) lines.push(access.join(', '));
  lines.push(
    ...section(
      'steps',
      report.steps.map(
        (s) =>
          `${s.name.padEnd(22)} ${s.outcome.padEnd(10)} ${ms(s.elapsedMs)}${s.detail === null ? '' : `  ${s.detail}`}`,
      ),
    ),
  );
  const width = Math.max(0, ...report.tools.map((t) => t.name.length));
  lines.push(
    ...section(
      'tools',
      report.tools.map(
        (t) =>
          `${t.name.padEnd(width)}  ${t.level.padEnd(12)}  rule ${t.rule}${t.raised ? ' (raised)' : ''}  ${t.reason}`,
      ),
    ),
  );
  lines.push(
    ...section(
      'findings',
      report.findings.map((f) => `${f.id}: ${f.message}`),
    ),
  );
  if (report.findings.length === 0 && report.toolCount > 0) lines.push('', 'findings: none');
  if (report.baseline !== null) {
    const b = report.baseline;
    const changes = [
      ...b.added.map((n) => `added ${n}`),
      ...b.removed.map((n) => `removed ${n}`),
      ...b.changed.flatMap((n) => {
        const detail = b.details.find((d) => d.name === n);
        return [`changed ${n}`, ...(detail === undefined ? [] : changeDetailLines(detail).map((line) => `  ${line}`))];
      }),
      ...b.renamed.map((r) => `renamed ${r.from} -> ${r.to}`),
      ...b.riskRises.map((r) => `risk rise ${r.name}: ${r.from ?? 'new'} -> ${r.to}`),
      ...entryLines('resource', b.resources),
      ...entryLines('resource template', b.resourceTemplates),
      ...entryLines('prompt', b.prompts),
    ];
    lines.push(...section(`baseline ${b.file}`, b.unchanged && changes.length === 0 ? ['unchanged'] : changes));
  }
  if (report.listAll !== null) {
    const l = report.listAll;
    const kindLines = (label: string, kind: ListedKind): string[] =>
      !kind.declared
        ? [`${label}: not offered`]
        : kind.error !== null
          ? [`${label}: could not be read (${kind.error})`]
          : [`${label}: ${kind.entries.length}`, ...kind.entries.map((e) => `  ${e.key}  ${e.hash.slice(0, 12)}`)];
    // A server without a template list is told apart from one whose list is empty.
    const templateLines =
      l.resourceTemplates.note === null
        ? kindLines('resource templates', l.resourceTemplates)
        : [`resource templates: none (${l.resourceTemplates.note})`];
    lines.push(
      ...section(
        'resources and prompts',
        l.skipped !== null
          ? [l.skipped]
          : [...kindLines('resources', l.resources), ...templateLines, ...kindLines('prompts', l.prompts)],
      ),
    );
  }
  if (report.deep !== null) {
    const d = report.deep;
    const p = d.compliance.parts;
    const show = (v: number | null): string => (v === null ? 'not measured' : String(v));
    lines.push(
      ...section('deep mode', [
        ...(d.skipped === null ? [] : [d.skipped]),
        `compliance score ${show(d.compliance.score)}: reachability ${show(p.reachability)}, schema validity ${show(p.schemaValidity)}, error handling ${show(p.errorHandling)}, fuzz ${show(p.fuzz)}, smoke ${show(p.smoke)}${d.compliance.authBonus > 0 ? `, +${d.compliance.authBonus} OAuth discovery` : ''}`,
        ...(d.compliance.authDiscovery === false
          ? ['sign-in asked for, but no /.well-known/oauth-protected-resource was found (no bonus, no penalty)']
          : []),
        ...(d.hostHeader === null ? [] : [`host header check: ${d.hostHeader.outcome}: ${d.hostHeader.reason}`]),
        ...deepLines(d.errorHandling),
        ...deepLines(d.fuzz),
        ...deepLines(d.smoke),
      ]),
    );
  }
  if (report.conformance !== null)
    lines.push(...section(report.conformance.suite, conformanceLines(report.conformance)));
  lines.push(...scoreLines(report));
  lines.push('', report.passed ? `passed (gates: ${report.gates.failOn.join(', ')})` : 'failed:');
  for (const gate of report.gates.tripped) lines.push(`  ${gate.gate}: ${gate.detail}`);
  return `${lines.join('\n')}\n`;
}
