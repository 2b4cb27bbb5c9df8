// The gates of `--fail-on`: which results fail a build. Parsing refuses unknown names up front, so a
// typo in CI config is a usage error (exit 2) and never a gate that silently never trips.
import { FINDING_IDS, type FindingId } from '@mcp-atlas/findings';
import { DEFAULT_GATES, FINDING_GATE_PREFIX, GATE_NAMES } from './constants.js';
import { changeDetailLines } from './describe-change.js';
import { CheckUsageError } from './errors.js';
import type {
  BaselineComparison,
  CheckedTool,
  CheckFinding,
  ConformanceReport,
  EntryListDiff,
  TrippedGate,
} from './report-schema.js';

/** A parsed gate. */
export type Gate = { kind: (typeof GATE_NAMES)[number] } | { kind: 'finding'; id: FindingId };

/**
 * Reads `--fail-on` values (each may hold several names separated by commas). None gives the default, and with
 * `--conformance` the default gates on the suite too: a run asked for that result is a run meant to gate on it.
 */
export function parseGates(values: readonly string[], conformance = false): Gate[] {
  const defaults = conformance ? [...DEFAULT_GATES, 'conformance'] : DEFAULT_GATES;
  const names = (values.length === 0 ? defaults : values)
    .flatMap((value) => value.split(','))
    .map((name) => name.trim());
  const gates: Gate[] = [];
  for (const name of names) {
    if ((GATE_NAMES as readonly string[]).includes(name)) gates.push({ kind: name as (typeof GATE_NAMES)[number] });
    else if (
      name.startsWith(FINDING_GATE_PREFIX) &&
      (FINDING_IDS as readonly string[]).includes(name.slice(FINDING_GATE_PREFIX.length))
    ) {
      gates.push({ kind: 'finding', id: name.slice(FINDING_GATE_PREFIX.length) as FindingId });
    } else {
      throw new CheckUsageError(
        `--fail-on does not know "${name}"; use ${GATE_NAMES.join(', ')} or ${FINDING_GATE_PREFIX}<id> with id one of ${FINDING_IDS.join(', ')}`,
      );
    }
  }
  return gates;
}

/** The name a gate is written with on the command line. */
export function gateName(gate: Gate): string {
  return gate.kind === 'finding' ? `${FINDING_GATE_PREFIX}${gate.id}` : gate.kind;
}

/** True when a gate can only be judged against a baseline. */
export function needsBaseline(gate: Gate): boolean {
  return gate.kind === 'risk-rise' || gate.kind === 'change';
}

/** What the gates look at. */
export interface GateInput {
  letter: string;
  reason: string;
  tools: readonly CheckedTool[];
  findings: readonly CheckFinding[];
  baseline: BaselineComparison | null;
  /** The conformance scenarios' results, with `--conformance`; else null. */
  conformance: ConformanceReport | null;
}

function describeEntries(label: string, diff: EntryListDiff | null): string[] {
  if (diff === null) return [];
  return [
    diff.added.length > 0 ? `${label} added ${diff.added.join(', ')}` : '',
    diff.removed.length > 0 ? `${label} removed ${diff.removed.join(', ')}` : '',
    diff.changed.length > 0 ? `${label} changed ${diff.changed.join(', ')}` : '',
  ];
}

/** The change gate's detail: what was added, removed, changed (and how) or renamed. */
export function describeChange(b: BaselineComparison): string {
  const changed = b.changed.map((name) => {
    const detail = b.details.find((d) => d.name === name);
    const lines = detail === undefined ? [] : changeDetailLines(detail);
    return lines.length === 0 ? name : `${name} (${lines.join('; ')})`;
  });
  const parts = [
    b.added.length > 0 ? `added ${b.added.join(', ')}` : '',
    b.removed.length > 0 ? `removed ${b.removed.join(', ')}` : '',
    changed.length > 0 ? `changed ${changed.join(', ')}` : '',
    b.renamed.length > 0 ? `renamed ${b.renamed.map((r) => `${r.from} -> ${r.to}`).join(', ')}` : '',
    ...describeEntries('resources', b.resources),
    ...describeEntries('resource templates', b.resourceTemplates),
    ...describeEntries('prompts', b.prompts),
  ];
  return parts.filter((p) => p !== '').join('; ');
}

function judge(gate: Gate, input: GateInput): string | null {
  switch (gate.kind) {
    case 'not-answering':
      // a and p are answers: the server is up and asked for sign-in or payment.
      return input.letter === 'd' ? `the server is not answering (${input.reason})` : null;
    case 'high-risk': {
      const high = input.tools.filter((tool) => tool.level === 'high-risk').map((tool) => tool.name);
      return high.length > 0 ? `high-risk tools: ${high.join(', ')}` : null;
    }
    case 'risk-rise': {
      const rises = input.baseline?.riskRises ?? [];
      return rises.length > 0
        ? `risk rose: ${rises.map((r) => `${r.name} ${r.from ?? 'new'} -> ${r.to}`).join(', ')}`
        : null;
    }
    case 'change':
      return input.baseline !== null && !input.baseline.unchanged
        ? `the tool list changed: ${describeChange(input.baseline)}`
        : null;
    case 'conformance': {
      const failed = input.conformance?.scenarios.filter((scenario) => !scenario.passed) ?? [];
      return failed.length > 0
        ? `conformance scenarios failed: ${failed.map((scenario) => `${scenario.name} (${scenario.reason})`).join(', ')}`
        : null;
    }
    case 'finding': {
      const finding = input.findings.find((f) => f.id === gate.id);
      return finding === undefined ? null : finding.message;
    }
  }
}

/** The gates that tripped, in the order they were given. */
export function evaluateGates(gates: readonly Gate[], input: GateInput): TrippedGate[] {
  const tripped: TrippedGate[] = [];
  for (const gate of gates) {
    const detail = judge(gate, input);
    if (detail !== null) tripped.push({ gate: gateName(gate), detail });
  }
  return tripped;
}
